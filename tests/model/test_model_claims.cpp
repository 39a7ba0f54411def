// The claims about the model around the table (model_claims.hpp and the rows run_gpt_claims adds): each verdict is
// computed from the numbers, and planted numbers flip it; rare tokens from planted counts; the held-out loss on a
// subset of targets against the trainer's own; function-word cosines from planted rows; and both faces' results.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpt2_fixture.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/gpt_trainer.hpp"
#include "lumen/model/model_claims.hpp"
#include "lumen/model/model_claims_json.hpp"
#include "lumen/model/token_stream.hpp"
#include "lumen/model/word_tokenizer.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "lumen/train/corpus.hpp"
#include "train/helpers.hpp"

using namespace lumen;
using namespace lumen::model;

namespace test_model_claims {

TEST(ModelClaims, AVerdictComesOutEitherWayFromTheNumbers) {
  EXPECT_EQ(judge_difference({0.2, 0.25, 0.3}, "seeds", kDepthVerdicts).verdict, "deeper_higher");
  EXPECT_EQ(judge_difference({-0.2, -0.25, -0.3}, "seeds", kDepthVerdicts).verdict, "row0_higher");
  EXPECT_EQ(judge_difference({0.1, -0.1, 0.05}, "seeds", kDepthVerdicts).verdict, "within_spread");
  EXPECT_EQ(judge_difference({0.3}, "seeds", kDepthVerdicts).verdict, "single");
  const ClaimFigure f = judge_difference({0.1, 0.2, 0.3}, "models", kPairVerdicts);
  EXPECT_EQ(f.verdict, "input_closer");
  EXPECT_DOUBLE_EQ(f.spread.mean, 0.2);
  EXPECT_NEAR(f.spread.sd, 0.1, 1e-12);
  EXPECT_EQ(f.over, "models");
  // One value with a spread from elsewhere.
  EXPECT_EQ(judge_difference(0.3, 0.1, 5, "folds", kDepthVerdicts).verdict, "deeper_higher");
  EXPECT_EQ(judge_difference(-0.3, 0.1, 5, "folds", kDepthVerdicts).verdict, "row0_higher");
  EXPECT_EQ(judge_difference(0.3, 0.5, 5, "folds", kDepthVerdicts).verdict, "within_spread");
  EXPECT_EQ(judge_difference(0.3, 0.1, 1, "folds", kDepthVerdicts).verdict, "single");
}

DepthScores planted_depth(double row0, double deeper, double a0, double a1) {
  DepthScores d;
  d.layers = 3;
  d.folds = 5;
  d.probe_row0 = row0;
  d.probe_deeper = deeper;
  d.probe_row0_std = d.probe_deeper_std = 0.02;
  d.analogies = true;
  d.analogy_questions = 1000;
  d.analogy_row0 = a0;
  d.analogy_deeper = a1;
  return d;
}

TEST(ModelClaims, PlantedDepthScoresFlipTheDepthVerdicts) {
  const std::vector<DepthScores> deeper = {planted_depth(0.1, 0.4, 0.1, 0.3), planted_depth(0.12, 0.38, 0.1, 0.32)};
  const std::vector<DepthScores> row0 = {planted_depth(0.4, 0.1, 0.3, 0.1), planted_depth(0.38, 0.12, 0.32, 0.1)};
  EXPECT_EQ(probe_gain(deeper).verdict, "deeper_higher");
  EXPECT_EQ(probe_gain(row0).verdict, "row0_higher");
  EXPECT_EQ(analogy_gain(deeper).verdict, "deeper_higher");
  EXPECT_EQ(analogy_gain(row0).verdict, "row0_higher");
  EXPECT_NEAR(probe_gain(deeper).spread.mean, 0.28, 1e-12);
  // One model: the folds' spread, and the analogies' binomial standard error.
  EXPECT_EQ(probe_gain(deeper[0]).verdict, "deeper_higher");
  EXPECT_EQ(probe_gain(row0[0]).verdict, "row0_higher");
  EXPECT_EQ(probe_gain(planted_depth(0.1, 0.11, 0, 0)).verdict, "within_spread");
  EXPECT_EQ(analogy_gain(row0[0]).verdict, "row0_higher");
  EXPECT_NEAR(analogy_gain(deeper[0]).spread.sd, std::sqrt(0.1 * 0.9 / 1000 + 0.3 * 0.7 / 1000), 1e-12);
  DepthScores none = deeper[0];
  none.analogies = false;
  EXPECT_EQ(analogy_gain(none).verdict, "not_measured");
  EXPECT_EQ(analogy_gain(std::vector<DepthScores>{deeper[0], none}).verdict, "not_measured");
}

TEST(ModelClaims, RareTokensAreTheBottomOfTheCounts) {
  // Counts: token 0 x6, 1 x3, 2 x1, 3 x1, 4 never, 5 x2.
  const std::vector<std::int32_t> stream = {0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 5, 5};
  const RareTokens r = rare_tokens(stream, 6, 0.25);  // 5 seen: the bottom 1 by count, and its ties
  EXPECT_EQ(r.seen, 5u);
  EXPECT_EQ(r.max_count, 1u);
  EXPECT_EQ(r.rare, 2u);
  EXPECT_EQ(r.mask, (std::vector<bool>{false, false, true, true, false, false}));  // 4 is absent, not rare
  const RareTokens half = rare_tokens(stream, 6, 0.5);                             // the bottom 2: counts 1, 1
  EXPECT_EQ(half.rare, 2u);
  EXPECT_EQ(rare_tokens(stream, 6, 0.6).max_count, 2u);   // the bottom 3: 1, 1, 2
  EXPECT_THROW(rare_tokens(stream, 5, 0.1), InputError);  // id 5 outside V
  EXPECT_THROW(rare_tokens(stream, 6, 0), InputError);
  EXPECT_THROW(rare_tokens({}, 6, 0.1), InputError);
}

TEST(ModelClaims, HeldOutLossOnASubsetIsTheTrainersOwnLossThere) {
  std::vector<std::int32_t> tokens;
  for (int i = 0; i < 400; ++i) tokens.push_back((i * 7 + i / 3) % 11);
  GptTrainOptions o;
  o.layers = 1;
  o.d_model = 8;
  o.heads = 2;
  o.context = 8;
  o.steps = 3;
  o.batch = 2;
  o.eval_batches = 2;
  o.threads = 1;
  o.holdout = 0.2;
  GptTrainer t(tokens, 11, o);
  t.train();
  const GptEval e = t.evaluate();
  const GptSubsetLoss all = t.heldout_loss_where(std::vector<bool>(11, true));
  EXPECT_EQ(all.targets, all.positions);
  EXPECT_EQ(all.positions, 2u * 2u * 8u);
  EXPECT_NEAR(all.loss, e.heldout_loss, 1e-6);
  const GptSubsetLoss none = t.heldout_loss_where(std::vector<bool>(11, false));
  EXPECT_EQ(none.targets, 0u);
  EXPECT_TRUE(std::isnan(none.loss));
  // Two halves of the targets average back to the whole.
  std::vector<bool> low(11, false), high(11, true);
  for (int v = 0; v < 5; ++v) low[v] = true, high[v] = false;
  const GptSubsetLoss a = t.heldout_loss_where(low), b = t.heldout_loss_where(high);
  EXPECT_EQ(a.targets + b.targets, all.targets);
  EXPECT_NEAR((a.loss * double(a.targets) + b.loss * double(b.targets)) / double(all.targets), all.loss, 1e-6);
  EXPECT_THROW(t.heldout_loss_where(std::vector<bool>(10, true)), InputError);
}

// A words tokenizer in which " a", " an", " the", ... are single tokens.
std::unique_ptr<text::Tokenizer> words_tokenizer() {
  const auto dir = train::test::temp_dir("function-words");
  const std::string path = (dir / "c.txt").string();
  train::test::write_text(path, "so a an the this that in on he she\nso a an the this that in on he she\n");
  auto t = text::parse_tokenizer_json(word_tokenizer_json(train::Corpus::open({path}), 50), "test words");
  std::filesystem::remove_all(dir);
  return t;
}

TEST(ModelClaims, PlantedRowsFlipThePairVerdict) {
  const auto tok = words_tokenizer();
  const std::size_t V = tok->size(), C = 4;
  const auto id = [&](const char* w) { return static_cast<std::size_t>(tok->encode(std::string(" ") + w).at(0)); };
  // E puts each pair together, the head apart; then the other way round.
  const auto plant = [&](bool input_close) {
    Weights w;
    w.wte.assign(V * C, 0.0f);
    w.lm_head.assign(V * C, 0.0f);
    const std::vector<std::pair<const char*, const char*>> pairs = {{"a", "an"}, {"this", "that"}, {"he", "she"}};
    std::size_t k = 0;
    for (const auto& [a, b] : pairs) {
      Param& close = input_close ? w.wte : w.lm_head;
      Param& apart = input_close ? w.lm_head : w.wte;
      close[id(a) * C + k] = close[id(b) * C + k] = 1.0f;
      apart[id(a) * C + k] = 1.0f;
      apart[id(b) * C + k] = -1.0f + 0.1f * static_cast<float>(k);
      apart[id(b) * C + 3] = 0.5f;
      ++k;
    }
    return w;
  };
  const std::vector<std::pair<std::string, std::string>> asked = {
      {"a", "an"}, {"this", "that"}, {"he", "she"}, {"a", "xylophone"}, {"a", "a"}};
  const auto in = input_head_cosines(plant(true), V, C, *tok, asked);
  ASSERT_EQ(in.size(), 3u);  // "xylophone" is many tokens; a word is not paired with itself
  EXPECT_EQ(in[0].a, "a");
  EXPECT_NEAR(in[0].input, 1.0, 1e-12);
  EXPECT_LT(in[0].head, -0.8);
  EXPECT_EQ(pair_gap(in).verdict, "input_closer");
  EXPECT_EQ(pair_gap(input_head_cosines(plant(false), V, C, *tok, asked)).verdict, "head_closer");
  const auto out = input_head_cosines(plant(false), V, C, *tok, asked);
  EXPECT_EQ(pair_gap(std::vector<std::vector<PairCosine>>{in, in}).verdict, "input_closer");  // over seeds
  EXPECT_EQ(pair_gap(std::vector<std::vector<PairCosine>>{in, out}).verdict, "within_spread");
  // keep: only pairs whose tokens pass (e.g. occur in the corpus).
  const auto kept =
      input_head_cosines(plant(true), V, C, *tok, asked, [&](std::int32_t t) { return t != std::int32_t(id("he")); });
  EXPECT_EQ(kept.size(), 2u);
  Weights tied = plant(true);
  tied.lm_head.clear();
  EXPECT_THROW(input_head_cosines(tied, V, C, *tok, asked), InputError);
  EXPECT_EQ(pair_gap(std::vector<PairCosine>{}).verdict, "not_measured");
}

TEST(ModelClaims, ACheckpointsClaims) {
  const std::string analogies = std::string(LUMEN_DATA_DIR) + "/questions-words.txt";
  const ModelClaims untied =
      run_model_claims({.checkpoint = model::testing::fixture_dir("gpt2-untied-bf16"), .analogies = analogies});
  EXPECT_FALSE(untied.tied);
  EXPECT_EQ(untied.layers, 2u);
  EXPECT_EQ(untied.depth.layers, 3u);
  EXPECT_GE(untied.depth.probe_layer, 1u);
  EXPECT_GT(untied.depth.probe_words, 10u);
  EXPECT_EQ(untied.probe_gain.over, "folds");
  EXPECT_DOUBLE_EQ(untied.probe_gain.spread.mean, untied.depth.probe_deeper - untied.depth.probe_row0);
  const nlohmann::json j = model_claims_json(untied);
  EXPECT_EQ(j["pairs"].size(), untied.pairs.size());
  EXPECT_EQ(j["probe_gain"]["verdict"], untied.probe_gain.verdict);
  const ModelClaims tied =
      run_model_claims({.checkpoint = model::testing::fixture_dir("gpt2"), .analogies = analogies});
  EXPECT_TRUE(tied.tied);
  EXPECT_TRUE(tied.pairs.empty());
  EXPECT_EQ(tied.pair_gap.verdict, "not_measured");
}

}  // namespace test_model_claims
