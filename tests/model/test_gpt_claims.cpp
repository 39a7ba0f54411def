// The tying claim on a transformer (lumen/model/gpt_claims.hpp): tiny tied and untied GPTs over seeds, their
// parameter counts against the calculator and the tensors themselves, the verdict from crafted numbers, the
// option checks, and the JSON.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/model/gpt_backprop.hpp"
#include "lumen/model/gpt_claims.hpp"
#include "lumen/model/gpt_claims_json.hpp"
#include "lumen/train/claims.hpp"
#include "train/helpers.hpp"

using namespace lumen;
using namespace lumen::model;
namespace fs = std::filesystem;

namespace test_gpt_claims {

struct Corpus {
  fs::path dir = train::test::temp_dir("gpt-claims");
  std::string path = (dir / "brown.txt").string();
  Corpus() { train::test::write_text(path, train::test::topic_corpus(600)); }
  ~Corpus() { fs::remove_all(dir); }
};

GptClaimsOptions tiny(const std::string& corpus) {
  GptClaimsOptions o;
  o.corpus = corpus;
  o.seeds = 2;
  o.train.layers = 1;
  o.train.d_model = 8;
  o.train.heads = 2;
  o.train.context = 8;
  o.train.steps = 6;
  o.train.batch = 2;
  o.train.eval_batches = 2;
  o.train.threads = 1;
  o.train.max_words = 12;
  o.analogies = std::string(LUMEN_DATA_DIR) + "/questions-words.txt";
  return o;
}

SeedSpread spread(std::vector<double> v) { return seed_spread(v); }

TEST(GptClaims, TrainsTiedAndUntiedPerSeedAndCountsTheirParameters) {
  Corpus c;
  auto o = tiny(c.path);
  o.rare_fraction = 0.5;  // so that some of the 32 held-out targets are rare
  std::vector<std::string> stages;
  const auto r = run_gpt_claims(o, [&](const train::ClaimsProgress& p) {
    const std::string s = std::string(p.stage) + (p.seeds ? std::to_string(p.seed_index) : "");
    if (stages.empty() || stages.back() != s) stages.push_back(s);
  });
  EXPECT_EQ(stages, (std::vector<std::string>{"vocabulary", "tokenize", "gpt tied0", "gpt untied0", "gpt tied1",
                                              "gpt untied1"}));
  EXPECT_EQ(r.V, 12u + 256u + 1u);  // the words, the bytes, <|endoftext|>
  EXPECT_EQ(r.seeds, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_GT(r.train_tokens, r.heldout_tokens);

  // The counts are the calculator's for this shape, and the tensors the trainer really holds.
  for (const bool tied : {true, false}) {
    nn::ModelShape s;
    s.V = r.V;
    s.d = 8;
    s.layers = 1;
    s.heads = s.kv_heads = 2;
    s.ffn = 32;
    s.context = 8;
    s.tied = tied;
    const auto& m = tied ? r.tied : r.untied;
    EXPECT_EQ(m.params.total, nn::count_params(s).total);
    std::uint64_t held = 0;
    const Weights w = gpt2_init(s, 1);
    for (const auto* t : tensors(w)) held += t->size();
    EXPECT_EQ(m.params.total, held);
  }
  EXPECT_EQ(r.untied.params.total - r.tied.params.total, r.V * 8u);  // the head: V x d
  EXPECT_EQ(r.tied.params.output_head, 0u);

  for (const auto* m : {&r.tied, &r.untied}) {
    ASSERT_EQ(m->heldout_perplexity.size(), 2u);
    for (double p : m->heldout_perplexity) {
      EXPECT_TRUE(std::isfinite(p));
      EXPECT_GT(p, 1.0);
      EXPECT_LT(p, static_cast<double>(r.V) * 2);  // 6 steps from a near-uniform start
    }
    EXPECT_NE(m->heldout_perplexity[0], m->heldout_perplexity[1]);  // the seeds differ
    EXPECT_DOUBLE_EQ(m->perplexity.mean, (m->heldout_perplexity[0] + m->heldout_perplexity[1]) / 2);
    EXPECT_NEAR(std::exp(m->heldout_loss[0]), m->heldout_perplexity[0], 1e-9);
  }
  EXPECT_NE(r.tied.heldout_perplexity[0], r.untied.heldout_perplexity[0]);
  std::size_t lower = 0;
  for (std::size_t k = 0; k < 2; ++k) lower += r.tied.heldout_perplexity[k] < r.untied.heldout_perplexity[k];
  EXPECT_EQ(r.tied_lower_seeds, lower);
  EXPECT_EQ(r.verdict, tying_verdict(r.tied.perplexity, r.untied.perplexity));

  const auto j = gpt_claims_json(r);
  EXPECT_EQ(j["V"], r.V);
  EXPECT_EQ(j["tied"]["params"], r.tied.params.total);
  EXPECT_EQ(j["untied"]["heldout_perplexity"].size(), 2u);
  EXPECT_EQ(j["verdict"], std::string(verdict_name(r.verdict)));
  EXPECT_EQ(j["seeds"].size(), 2u);
  EXPECT_DOUBLE_EQ(double(j["tied"]["perplexity"]["sd"]), r.tied.perplexity.sd);

  // The rows model_claims.hpp adds, measured on the same models.
  EXPECT_GT(r.rare_tokens, 0u);
  EXPECT_LE(r.rare_tokens, r.seen_tokens);
  EXPECT_GT(r.rare_targets, 0u);
  EXPECT_LT(r.rare_targets, r.heldout_positions);
  for (const auto* m : {&r.tied, &r.untied}) {
    ASSERT_EQ(m->rare_loss.size(), 2u);
    EXPECT_TRUE(std::isfinite(m->rare_loss[0]));
    EXPECT_DOUBLE_EQ(m->rare.mean, (m->rare_loss[0] + m->rare_loss[1]) / 2);
    ASSERT_EQ(m->depth.size(), 2u);
    EXPECT_EQ(m->depth[0].layers, 2u);
    EXPECT_EQ(m->depth[0].probe_layer, 1u);
  }
  EXPECT_EQ(r.rare_verdict, tying_verdict(r.tied.rare, r.untied.rare));
  EXPECT_EQ(r.pairs.size(), 2u);  // one list per seed's untied model
  EXPECT_TRUE(r.depth);
  EXPECT_EQ(r.labels, "plural");
  EXPECT_EQ(r.probe_gain.values.size(), 4u);  // every model: each seed's tied and untied
  EXPECT_DOUBLE_EQ(r.probe_gain.values[1], r.untied.depth[0].probe_deeper - r.untied.depth[0].probe_row0);
  EXPECT_EQ(j["rare_targets"]["verdict"], std::string(verdict_name(r.rare_verdict)));
  EXPECT_EQ(j["depth"]["tied"].size(), 2u);
  EXPECT_EQ(j["depth"]["probe_gain"]["verdict"], r.probe_gain.verdict);
  EXPECT_EQ(j["function_words"]["pairs"].size(), 2u);
  EXPECT_EQ(j["untied"]["rare_loss"].size(), 2u);
}

TEST(GptClaims, SameSeedSameRunDifferentSeedDifferentRun) {
  Corpus c;
  auto o = tiny(c.path);
  o.seeds = 1;
  const auto a = run_gpt_claims(o), b = run_gpt_claims(o);
  EXPECT_EQ(a.tied.heldout_perplexity, b.tied.heldout_perplexity);
  EXPECT_EQ(a.verdict, TyingVerdict::single_seed);
  o.first_seed = 5;
  EXPECT_NE(run_gpt_claims(o).tied.heldout_perplexity, a.tied.heldout_perplexity);
}

TEST(GptClaims, SeedSpreadIsTheSampleStandardDeviation) {
  const auto s = spread({1, 2, 3});
  EXPECT_DOUBLE_EQ(s.mean, 2.0);
  EXPECT_DOUBLE_EQ(s.sd, 1.0);  // n - 1 in the denominator (the population's would be 0.816)
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 3.0);
  EXPECT_EQ(s.n, 3u);
  EXPECT_EQ(spread({4}).sd, 0.0);
}

TEST(GptClaims, VerdictFollowsTheNumbers) {
  // Means 11 and 21, sd 1 each: the intervals [10, 12] and [20, 22] do not meet.
  EXPECT_EQ(tying_verdict(spread({10, 11, 12}), spread({20, 21, 22})), TyingVerdict::tied_lower);
  EXPECT_EQ(tying_verdict(spread({20, 21, 22}), spread({10, 11, 12})), TyingVerdict::untied_lower);
  // A gap of 1.5 against sds of 1: within the spread, whichever way.
  EXPECT_EQ(tying_verdict(spread({10, 11, 12}), spread({11.5, 12.5, 13.5})), TyingVerdict::within_spread);
  EXPECT_EQ(tying_verdict(spread({11.5, 12.5, 13.5}), spread({10, 11, 12})), TyingVerdict::within_spread);
  // Just beyond: [10, 12] and [12.01, 14.01].
  EXPECT_EQ(tying_verdict(spread({10, 11, 12}), spread({12.01, 13.01, 14.01})), TyingVerdict::tied_lower);
  // One seed: no spread to judge against, however large the gap.
  EXPECT_EQ(tying_verdict(spread({10}), spread({100})), TyingVerdict::single_seed);
  EXPECT_EQ(verdict_name(TyingVerdict::within_spread), "within_spread");
}

TEST(GptClaims, OptionsAreCheckedBeforeAnyWorkInTheTrainersNames) {
  Corpus c;
  const auto option_of = [](const GptClaimsOptions& o) -> std::string {
    try {
      run_gpt_claims(o, [](const train::ClaimsProgress& p) {
        ADD_FAILURE() << "work started (" << p.stage << ") before the options were checked";
      });
    } catch (const OptionError& e) {
      return e.option();
    }
    return "";
  };
  auto o = tiny(c.path);
  o.seeds = 0;
  EXPECT_EQ(option_of(o), "seeds");
  o = tiny(c.path);
  o.train.heads = 3;
  EXPECT_EQ(option_of(o), "heads");
  o = tiny(c.path);
  o.train.steps = 0;
  EXPECT_EQ(option_of(o), "steps");
  o = tiny(c.path);
  o.train.max_words = 0;
  EXPECT_EQ(option_of(o), "max_words");
  o = tiny(c.path);
  o.train.tokenizer = "chars";
  EXPECT_EQ(option_of(o), "tokenizer");

  o = tiny((c.dir / "none.txt").string());
  try {
    run_gpt_claims(o);
    ADD_FAILURE() << "a missing corpus was accepted";
  } catch (const InputError& e) {
    const std::string spelled = e.text_for([](std::string_view n) { return "<" + std::string(n) + ">"; });
    EXPECT_NE(spelled.find("none.txt: the corpus for the tied/untied GPTs is missing (give <corpus>, or <skip_gpt>)"),
              std::string::npos)
        << spelled;
  }
  o = tiny(c.path);
  o.train.context = 5000;  // longer than either part of the stream
  EXPECT_THROW(run_gpt_claims(o), InputError);
}

}  // namespace test_gpt_claims
