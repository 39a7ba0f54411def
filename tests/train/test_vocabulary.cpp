#include <gtest/gtest.h>

#include <cmath>

#include "helpers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/train/vocabulary.hpp"

using namespace lumen;
using namespace lumen::train;

TEST(Vocabulary, SortedByCountTiesByFirstOccurrence) {
  auto dir = test::temp_dir("vocab");
  test::write_text(dir / "c.txt", "b a c a\nd b a e\nc e rare\n");
  auto c = Corpus::open({(dir / "c.txt").string()});
  VocabStats st;
  auto v = build_vocab(c, text::WordSplitter(), {.min_count = 2}, &st);
  // a:3; b:2 (first at 0), c:2 (first at 2), e:2 (first at 7); d and rare dropped.
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v.tokens(), (std::vector<std::string>{"a", "b", "c", "e"}));
  EXPECT_EQ(v.counts(), (std::vector<std::uint64_t>{3, 2, 2, 2}));
  EXPECT_EQ(st.tokens, 11u);
  EXPECT_EQ(st.kept_tokens, 9u);
  EXPECT_EQ(st.distinct, 6u);
  auto top = build_vocab(c, text::WordSplitter(), {.min_count = 1, .max_vocab = 2});
  EXPECT_EQ(top.tokens(), (std::vector<std::string>{"a", "b"}));
  // Counts saved as `word count` lines and read back.
  save_vocab_counts((dir / "v.txt").string(), v);
  auto back = load_vocab_counts((dir / "v.txt").string());
  EXPECT_EQ(back.tokens(), v.tokens());
  EXPECT_EQ(back.counts(), v.counts());
  std::filesystem::remove_all(dir);
}

TEST(Vocabulary, LowerCasingMergesCounts) {
  auto dir = test::temp_dir("vocab-lower");
  test::write_text(dir / "c.txt", "The the THE cat\n");
  auto c = Corpus::open({(dir / "c.txt").string()});
  auto v = build_vocab(c, text::WordSplitter({.lower = true}), {.min_count = 1});
  EXPECT_EQ(v.tokens(), (std::vector<std::string>{"the", "cat"}));
  EXPECT_EQ(v.count(0), 3u);
  std::filesystem::remove_all(dir);
}

TEST(Vocabulary, MalformedVocabFileIsAParseErrorWithTheLine) {
  auto dir = test::temp_dir("vocab-bad");
  test::write_text(dir / "v.txt", "a 3\nb x\n");
  try {
    load_vocab_counts((dir / "v.txt").string());
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2u);
  }
  test::write_text(dir / "d.txt", "a 3\na 2\n");
  EXPECT_THROW(load_vocab_counts((dir / "d.txt").string()), ParseError);
  std::filesystem::remove_all(dir);
}

TEST(Vocabulary, SubsamplingKeepProbabilityIsWord2vecRule) {
  Vocab v;
  v.add("frequent", 900);
  v.add("rare", 100);
  const double t = 1e-2;
  auto keep = keep_probabilities(v, t);
  const double f = 0.9;
  EXPECT_NEAR(keep[0], std::sqrt(t / f) + t / f, 1e-6);
  EXPECT_NEAR(keep[1], std::sqrt(t / 0.1) + t / 0.1, 1e-6);
  EXPECT_EQ(keep_probabilities(v, 0)[0], 1.0f);
}
