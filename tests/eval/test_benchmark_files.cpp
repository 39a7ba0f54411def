#include <gtest/gtest.h>

#include <cmath>

#include "lumen/core/error.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/eval/word_pairs.hpp"

using namespace lumen::eval;

TEST(EvalAnalogySet, SectionsQuestionsAndLineNumbers) {
  const auto s = parse_analogy_set(
      ": capital-common-countries\r\nAthens Greece Baghdad Iraq\r\n\n"
      ":  family \nboy girl brother sister\nking queen\n: empty\n",
      "q.txt");
  ASSERT_EQ(s.sections.size(), 3u);
  EXPECT_EQ(s.sections[0].name, "capital-common-countries");
  EXPECT_EQ(s.sections[1].name, "family");
  EXPECT_EQ(s.sections[2].name, "empty");
  EXPECT_TRUE(s.sections[2].questions.empty());
  ASSERT_EQ(s.sections[0].questions.size(), 1u);
  EXPECT_EQ(s.sections[0].questions[0].d, "Iraq");  // the \r is whitespace
  EXPECT_EQ(s.sections[0].questions[0].line, 2u);
  EXPECT_EQ(s.sections[1].questions[0].line, 5u);
  ASSERT_EQ(s.malformed.size(), 1u);
  EXPECT_EQ(s.malformed[0].line, 6u);
  EXPECT_NE(s.malformed[0].reason.find("found 2 words"), std::string::npos);
  EXPECT_EQ(s.questions(), 2u);
}

TEST(EvalAnalogySet, MalformedLinesAreCountedOrRejected) {
  const std::string text = "a b c d\n: s\na b c d e\n:nospace x y z\nx\xff y z w\nok fine good well\n";
  const auto s = parse_analogy_set(text, "q.txt");
  ASSERT_EQ(s.malformed.size(), 3u);
  EXPECT_EQ(s.malformed[0].line, 1u);  // before any header
  EXPECT_NE(s.malformed[0].reason.find("header"), std::string::npos);
  EXPECT_EQ(s.malformed[1].line, 3u);  // five words
  EXPECT_EQ(s.malformed[2].line, 5u);  // invalid UTF-8
  EXPECT_EQ(s.malformed[2].reason, "invalid UTF-8");
  // ":nospace x y z" is no header (gensim needs ": "): four words, so a question, as gensim reads it.
  ASSERT_EQ(s.sections.size(), 1u);
  ASSERT_EQ(s.sections[0].questions.size(), 2u);
  EXPECT_EQ(s.sections[0].questions[0].a, ":nospace");
  try {
    parse_analogy_set(text, "q.txt", true);
    FAIL() << "strict accepted a malformed line";
  } catch (const lumen::ParseError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_NE(std::string(e.what()).find("q.txt"), std::string::npos);
  }
}

TEST(EvalAnalogySet, ByteOrderMarkAndMissingFile) {
  const auto s = parse_analogy_set("\xef\xbb\xbf: s\na b c d\n", "q.txt");
  ASSERT_EQ(s.sections.size(), 1u);
  EXPECT_EQ(s.sections[0].questions.size(), 1u);
  EXPECT_THROW(read_analogy_set("/nonexistent/questions.txt"), lumen::IoError);
}

TEST(EvalWordPairs, GensimsReading) {
  const auto s = parse_word_pairs(
      "# comment\nlove\tsex\t6.77\rtiger\tcat\t 7.35 \r\nbook\tpaper\t1_0\n\nx\ty\n"
      "a\tb\tnan\nc\td\tseven\ne\tf\t1e400\ng\th\t+.5e1\nk \tl\t2\n",
      "p.tsv");
  ASSERT_EQ(s.pairs.size(), 7u);
  EXPECT_EQ(s.pairs[0].w1, "love");
  EXPECT_DOUBLE_EQ(s.pairs[0].score, 6.77);
  EXPECT_EQ(s.pairs[1].line, 3u);  // a lone \r ends a line (Python's universal newlines)
  EXPECT_DOUBLE_EQ(s.pairs[1].score, 7.35);
  EXPECT_DOUBLE_EQ(s.pairs[2].score, 10.0);  // Python's float() takes underscores between digits
  EXPECT_TRUE(std::isnan(s.pairs[3].score));
  EXPECT_TRUE(std::isinf(s.pairs[4].score));
  EXPECT_DOUBLE_EQ(s.pairs[5].score, 5.0);
  EXPECT_EQ(s.pairs[6].w1, "k ");  // words are not stripped (gensim: "k " is not "k")
  ASSERT_EQ(s.malformed.size(), 2u);
  EXPECT_EQ(s.malformed[0].line, 6u);
  EXPECT_NE(s.malformed[0].reason.find("found 2"), std::string::npos);
  EXPECT_EQ(s.malformed[1].line, 8u);
  EXPECT_NE(s.malformed[1].reason.find("not a number"), std::string::npos);
  EXPECT_THROW(parse_word_pairs("a\tb\t1\na\tb\t1_\n", "p.tsv", true), lumen::ParseError);
  EXPECT_THROW(read_word_pairs("/nonexistent/pairs.tsv"), lumen::IoError);
}
