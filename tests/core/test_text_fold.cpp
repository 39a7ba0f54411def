#include <gtest/gtest.h>

#include "lumen/core/text_fold.hpp"

using lumen::split_whitespace;
using lumen::strip_whitespace;
using lumen::unicode_upper;

TEST(EvalTextFold, UpperIsPythonsStrUpper) {
  EXPECT_EQ(*unicode_upper("Athens greece"), "ATHENS GREECE");
  EXPECT_EQ(*unicode_upper("straße"), "STRASSE");             // full mapping: one letter becomes two
  EXPECT_EQ(*unicode_upper("преступление"), "ПРЕСТУПЛЕНИЕ");  // Cyrillic
  EXPECT_EQ(*unicode_upper("ﬁne"), "FINE");                   // ligature
  EXPECT_EQ(*unicode_upper("ǆ"), "Ǆ");
  EXPECT_EQ(*unicode_upper("İi"), "İI");
  EXPECT_EQ(*unicode_upper("123-_!"), "123-_!");
  EXPECT_EQ(*unicode_upper(""), "");
  EXPECT_FALSE(unicode_upper("caf\xc3"));       // truncated sequence
  EXPECT_FALSE(unicode_upper("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(unicode_upper("\xc0\xaf"));      // overlong
}

TEST(EvalTextFold, SplitIsPythonsStrSplit) {
  const auto w = split_whitespace(
      "  a\tb\xc2\xa0"
      "c\xe3\x80\x80"
      "d\r\n");  // NBSP and ideographic space split
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0], "a");
  EXPECT_EQ(w[1], "b");
  EXPECT_EQ(w[2], "c");
  EXPECT_EQ(w[3], "d");
  EXPECT_TRUE(split_whitespace(" \t\r").empty());
  EXPECT_EQ(split_whitespace("x\x1fy").size(), 2u);  // \x1f is whitespace to Python
  EXPECT_EQ(split_whitespace("é").size(), 1u);
}

TEST(EvalTextFold, Strip) {
  EXPECT_EQ(strip_whitespace("  capital-world \r\n"), "capital-world");
  EXPECT_EQ(strip_whitespace("\xc2\xa0x\xc2\xa0"), "x");
  EXPECT_EQ(strip_whitespace("   "), "");
  EXPECT_EQ(strip_whitespace("é"), "é");
}
