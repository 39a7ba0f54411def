// The claims experiment (lumen/train/claims.hpp) on a small table trained here.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <utility>

#include "helpers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/train/claims.hpp"
#include "lumen/train/result_json.hpp"
#include "lumen/train/session.hpp"

using namespace lumen;
using namespace lumen::train;
namespace fs = std::filesystem;

namespace test_claims {

// A skip-gram table over the two-topic corpus, with its counts beside it (t.vec, t.vec.vocab) and the corpus
// under the name claims looks for (brown.txt).
struct Trained {
  fs::path dir;
  std::string table;
  Word2VecSessionResult run;
  explicit Trained(const std::string& name) : dir(test::temp_dir(name)), table((dir / "t.vec").string()) {
    test::write_text(dir / "brown.txt", test::topic_corpus(1500));
    run = train_word2vec({{(dir / "brown.txt").string()}, 1, 0},
                         {.dim = 16, .epochs = 3, .sample = 0, .seed = 4, .threads = 1}, {.table = table});
  }
  ~Trained() { fs::remove_all(dir); }
};

ClaimsOptions small() { return {.seed = 4, .lm_vocab = 10, .lm_tokens = 3000, .context = 2, .dim = 8, .hidden = 8}; }

// The message of the InputError that run_claims throws, spelled as the library does and as <option>.
std::pair<std::string, std::string> claims_error(const Trained& t, const ClaimsOptions& o) {
  try {
    run_claims(t.run.table, t.table, o);
  } catch (const InputError& e) {
    return {e.message(), e.text_for([](std::string_view n) { return "<" + std::string(n) + ">"; })};
  }
  return {};
}

TEST(Claims, MeasuresFrequencyLengthAndPairsOfTheTable) {
  Trained t("claims-table");
  auto o = small();
  o.skip_lm = true;
  const auto r = run_claims(t.run.table, t.table, o);
  EXPECT_EQ(r.table, t.table);
  EXPECT_EQ(r.V, t.run.table.V());
  EXPECT_EQ(r.rows, r.V);  // every word has a count
  EXPECT_TRUE(std::isfinite(r.spearman) && std::abs(r.spearman) <= 1.0);
  EXPECT_FALSE(r.tying.has_value());
  // Of the probes only cat ~ dog / cat ~ parliament are all in this corpus.
  ASSERT_EQ(r.pairs.size(), 2u);
  EXPECT_EQ(r.pairs[0].a, "cat");
  EXPECT_EQ(r.pairs[0].b, "dog");
  EXPECT_TRUE(r.pairs[0].related);
  EXPECT_EQ(r.pairs[1].b, "parliament");
  EXPECT_FALSE(r.pairs[1].related);
  EXPECT_GT(r.pairs[0].trained, r.pairs[1].trained + 0.2);      // training put the animals together...
  EXPECT_LT(std::abs(r.pairs[0].init - r.pairs[1].init), 0.6);  // ...at init, no structure
  const auto j = claims_result_json(r);
  EXPECT_EQ(j["frequency_length"]["rows"], r.rows);
  EXPECT_EQ(j["pairs"].size(), 2u);
  EXPECT_EQ(j["pairs"][0]["a"], "cat");
  EXPECT_FALSE(j.contains("tying"));
}

TEST(Claims, TrainsTiedAndUntiedModelsAtEqualSettings) {
  Trained t("claims-lm");
  std::vector<std::string> stages;
  auto o = small();
  o.progress = [&](const ClaimsProgress& p) {
    if (stages.empty() || stages.back() != p.stage) stages.emplace_back(p.stage);
  };
  const auto r = run_claims(t.run.table, t.table, o);
  ASSERT_TRUE(r.tying.has_value());
  const auto& ty = *r.tying;
  EXPECT_EQ(ty.corpus, (t.dir / "brown.txt").string());
  EXPECT_EQ(ty.train_tokens, 3000u);
  EXPECT_EQ(ty.tied.V, 12u);  // the 10 most frequent words, </s> and <unk>
  EXPECT_EQ(ty.untied.V, 12u);
  EXPECT_GT(ty.tied.heldout_perplexity, 1.0);
  EXPECT_NE(ty.tied.heldout_perplexity, ty.untied.heldout_perplexity);
  EXPECT_EQ(stages, (std::vector<std::string>{"vocabulary", "lm (tied)", "vocabulary", "lm (untied)"}));
  const auto j = claims_result_json(r);
  EXPECT_EQ(j["tying"]["tied"]["V"], 12u);
  EXPECT_EQ(j["tying"]["optimizer"], "adam");
  EXPECT_EQ(j["tying"]["d"], 8u);
}

TEST(Claims, MissingCountsOrCorpusSayWhichOptionGivesThem) {
  Trained t("claims-missing");
  auto o = small();
  o.vocab_counts = (t.dir / "none.vocab").string();
  const auto [counts, counts_spelled] = claims_error(t, o);
  EXPECT_NE(counts.find("none.vocab: no counts file"), std::string::npos) << counts;
  EXPECT_NE(counts.find("give one with vocab_counts"), std::string::npos) << counts;
  EXPECT_NE(counts_spelled.find("give one with <vocab_counts>"), std::string::npos) << counts_spelled;
  o = small();
  o.corpus = (t.dir / "none.txt").string();
  const auto [corpus, corpus_spelled] = claims_error(t, o);
  EXPECT_NE(corpus.find("none.txt: the corpus for the tied/untied comparison is missing (give corpus, or skip_lm)"),
            std::string::npos)
      << corpus;
  EXPECT_NE(corpus_spelled.find("(give <corpus>, or <skip_lm>)"), std::string::npos) << corpus_spelled;
}

}  // namespace test_claims
