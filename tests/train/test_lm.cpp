#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "helpers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/linalg/blas_threads.hpp"
#include "lumen/train/lm.hpp"
#include "lumen/train/vocabulary.hpp"

using namespace lumen;
using namespace lumen::train;

namespace test_lm {
struct Fixture {
  std::filesystem::path dir;
  Corpus corpus;
  Vocab words;
  explicit Fixture(const std::string& name)
      : dir(test::temp_dir(name)), corpus([&] {
          test::write_text(dir / "c.txt", test::topic_corpus(1500));
          return Corpus::open({(dir / "c.txt").string()});
        }()) {
    words =
        build_vocab(corpus, text::WordSplitter(), {.min_count = 1, .end_byte = LanguageModel::train_end(corpus, 0.1)});
  }
  ~Fixture() { std::filesystem::remove_all(dir); }
};

LmOptions small(bool tie) {
  return {.context = 2,
          .dim = 16,
          .hidden = 24,
          .tie = tie,
          .lr = 1e-2f,
          .batch = 32,
          .epochs = 2,
          .holdout = 0.1,
          .shuffle_window = 500,
          .threads = 1};
}

TEST(LanguageModel, HeldOutPerplexityFallsBelowUniformAndUnigram) {
  Fixture f("lm-learn");
  for (bool tie : {true, false}) {
    LanguageModel lm(f.corpus, f.words, small(tie));
    const double before = lm.evaluate().heldout_perplexity;
    const double V = static_cast<double>(lm.vocab().size());
    EXPECT_NEAR(before, V, V * 0.2);  // small init: close to uniform
    std::vector<LmEpoch> seen;
    ASSERT_TRUE(lm.train({}, [&](const LmEpoch& e) { seen.push_back(e); }));
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(lm.history().size(), 2u);
    EXPECT_EQ(seen[1].epoch, 2u);
    EXPECT_GT(seen[0].heldout_tokens, 100u);
    // Words are drawn from the sentence's topic (8 words, 2/3 of the time) or 6 glue words. A unigram model,
    // blind to the context, scores about 21; knowing the topic from the context, the best possible is about 15
    // (the first word of a sentence and </s> cannot be guessed). Only a model that reads its context gets here:
    EXPECT_LT(seen[1].heldout_perplexity, 17.5) << "tie=" << tie;
    EXPECT_LT(seen[1].heldout_perplexity, seen[0].heldout_perplexity + 0.5);
    EXPECT_EQ(lm.vocab().token(0), "</s>");
    EXPECT_EQ(lm.vocab().token(1), "<unk>");
  }
}

TEST(LanguageModel, TiedOutputTableIsTheInputTable) {
  Fixture f("lm-tied");
  LanguageModel tied(f.corpus, f.words, small(true));
  tied.train();
  auto in = tied.input_table(), out = tied.output_table();
  EXPECT_EQ(0, std::memcmp(in.E.data(), out.E.data(), in.E.bytes()));
  LanguageModel untied(f.corpus, f.words, small(false));
  untied.train();
  auto uin = untied.input_table(), uout = untied.output_table();
  EXPECT_NE(0, std::memcmp(uin.E.data(), uout.E.data(), uin.E.bytes()));
}

TEST(LanguageModel, StopCheckpointResumeIsBitForBit) {
  for (bool tie : {true, false}) {
    Fixture f("lm-resume");
    auto o = small(tie);
    LanguageModel straight(f.corpus, f.words, o);
    ASSERT_TRUE(straight.train());

    LanguageModel first(f.corpus, f.words, o);
    const auto ckpt = (f.dir / "lm.ckpt").string();
    EXPECT_FALSE(test::train_to_first_checkpoint(first, 700, ckpt).first);  // mid-window, mid-epoch
    auto resumed = LanguageModel::load_checkpoint(ckpt, f.corpus);
    ASSERT_TRUE(resumed.train());
    auto a = straight.input_table(), b = resumed.input_table();
    EXPECT_EQ(0, std::memcmp(a.E.data(), b.E.data(), a.E.bytes())) << "tie=" << tie;
    ASSERT_EQ(resumed.history().size(), 2u);
    EXPECT_EQ(resumed.history()[1].heldout_perplexity, straight.history()[1].heldout_perplexity);
  }
}

// OpenBLAS's thread count is process-wide, and at another count some of its sgemm kernels (Haswell's, Zen's) sum
// in another order. The model's GEMMs must run at its own count, not at whatever an earlier call left behind:
// this failed with OPENBLAS_CORETYPE=Haswell before every BLAS call ran under a ScopedBlasThreads.
TEST(LanguageModel, EvaluationIgnoresTheBlasThreadCountLeftBehind) {
  Fixture f("lm-blas");
  LanguageModel lm(f.corpus, f.words, small(true));
  lm.train();
  const auto left_behind = [&](std::size_t count) {  // a caller's guard still in force around the call
    const ScopedBlasThreads earlier(count);
    return lm.evaluate().heldout_loss;
  };
  const double one = left_behind(1), two = left_behind(2);
  EXPECT_EQ(one, two);
}

TEST(LanguageModel, SgdAndProjectionFreeShapesTrain) {
  Fixture f("lm-sgd");
  auto o = small(true);
  o.optimizer = OptimizerKind::sgd;
  o.lr = 0.3f;
  o.hidden = o.dim;  // no projection
  o.scale_sqrt_d = true;
  LanguageModel lm(f.corpus, f.words, o);
  const double before = lm.evaluate().heldout_perplexity;
  lm.train();
  EXPECT_LT(lm.history().back().heldout_perplexity, before * 0.8);
}

TEST(LanguageModel, BadOptions) {
  Fixture f("lm-bad");
  auto o = small(true);
  o.context = 0;
  EXPECT_THROW(LanguageModel(f.corpus, f.words, o), UsageError);
  o = small(true);
  o.holdout = 1.5;
  EXPECT_THROW(LanguageModel(f.corpus, f.words, o), UsageError);
  EXPECT_THROW(parse_optimizer("rmsprop"), UsageError);
}

}  // namespace test_lm
