// text::WordSplitter: how the trainers split a corpus's words (lower case, punctuation).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lumen/text/word_splitter.hpp"

using lumen::text::WordSplitter;

TEST(WordSplitter, WhitespaceOnlyByDefault) {
  WordSplitter t;
  EXPECT_EQ(t.split_text("  The cat,  sat.\tOn\r\nmats "),
            (std::vector<std::string>{"The", "cat,", "sat.", "On", "mats"}));
}

TEST(WordSplitter, LowerCasesAsciiAndTwoByteLetters) {
  WordSplitter t({.lower = true});
  EXPECT_EQ(t.split_text("ÉCOLE Straße ΑΘΗΝΑ МОСКВА ŁÓDŹ"),
            (std::vector<std::string>{"école", "straße", "αθηνα", "москва", "łódź"}));
}

TEST(WordSplitter, SplitsPunctuationButKeepsInnerApostropheAndHyphen) {
  WordSplitter t({.lower = false, .split_punct = true});
  EXPECT_EQ(t.split_text("\"Don't\" term-end, (yes)... --no 'quoted'"),
            (std::vector<std::string>{"\"", "Don't", "\"", "term-end", ",", "(", "yes", ")", "...", "--", "no", "'",
                                      "quoted", "'"}));
}
