// The pre-tokenization regexes with real Unicode classes (PCRE2, UTF + UCP).
#include <gtest/gtest.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "lumen/core/error.hpp"
#include "lumen/text/pretokenizer.hpp"

using namespace lumen::text;

namespace test_pretokenizer {
std::vector<std::string> split(const Pretokenizer& p, std::string_view text) {
  std::vector<std::string_view> v;
  p.split(text, v);
  return {v.begin(), v.end()};
}
Pretokenizer one(std::string_view pattern) {
  Pretokenizer p;
  p.add_split(pattern);
  return p;
}
using S = std::vector<std::string>;

TEST(Pretokenizer, Gpt2Pattern) {
  const auto p = one(kGpt2Pattern);
  EXPECT_EQ(split(p, "Hello world's end"), (S{"Hello", " world", "'s", " end"}));
  // Runs of spaces: all but the last go alone, the last joins the next word.
  EXPECT_EQ(split(p, "a   b"), (S{"a", "  ", " b"}));
  EXPECT_EQ(split(p, "x  \n\n y"), (S{"x", "  \n\n", " y"}));
  EXPECT_EQ(split(p, "end  "), (S{"end", "  "}));
  EXPECT_EQ(split(p, "12,345.6!?"), (S{"12", ",", "345", ".", "6", "!?"}));
}

TEST(Pretokenizer, UnicodeClassesAreReal) {
  const auto p = one(kGpt2Pattern);
  // é and ß are letters, ٣ (Arabic-Indic three) and ² are numbers, the CJK run is one letter run,
  // NBSP (U+00A0) is white space.
  EXPECT_EQ(split(p,
                  "caf\xc3\xa9 Stra\xc3\x9f"
                  "e"),
            (S{"caf\xc3\xa9",
               " Stra\xc3\x9f"
               "e"}));
  EXPECT_EQ(split(p, "x \xd9\xa3\xc2\xb2"), (S{"x", " \xd9\xa3\xc2\xb2"}));
  EXPECT_EQ(split(p, "\xe4\xbd\xa0\xe5\xa5\xbd world"), (S{"\xe4\xbd\xa0\xe5\xa5\xbd", " world"}));
  EXPECT_EQ(split(p,
                  "a\xc2\xa0"
                  "b"),
            (S{"a", "\xc2\xa0", "b"}));
  EXPECT_EQ(split(p, "hi \xf0\x9f\x98\x80\xf0\x9f\x98\x80"), (S{"hi", " \xf0\x9f\x98\x80\xf0\x9f\x98\x80"}));
}

TEST(Pretokenizer, WhiteSpaceIsUnicodes) {
  // U+FEFF (BOM) is a format character, not white space (JavaScript's \s, hence js-tiktoken, says it is);
  // U+0085 (NEL) and U+2028 are white space.
  const auto p = one(kGpt2Pattern);
  EXPECT_EQ(split(p, " \xef\xbb\xbfHello"), (S{" \xef\xbb\xbf", "Hello"}));
  EXPECT_EQ(split(p,
                  "a\xc2\x85\xc2\x85"
                  "b"),
            (S{"a", "\xc2\x85", "\xc2\x85", "b"}));
  EXPECT_EQ(split(p, "a\xe2\x80\xa8 b"), (S{"a", "\xe2\x80\xa8", " b"}));
}

TEST(Pretokenizer, Llama3Pattern) {
  const auto p = one(kLlama3Pattern);
  EXPECT_EQ(split(p, "I'M here"), (S{"I", "'M", " here"}));  // contractions ignore case
  EXPECT_EQ(split(p, "1234567"), (S{"123", "456", "7"}));    // digits by three
  EXPECT_EQ(split(p, "(hello"), (S{"(hello"}));              // one non-letter joins the word
  EXPECT_EQ(split(p, "a!!\n\nb"), (S{"a", "!!\n\n", "b"}));
  EXPECT_EQ(split(p, "x \n  y"), (S{"x", " \n", " ", " y"}));
}

TEST(Pretokenizer, InvalidUtf8BecomesItsOwnPiece) {
  const auto p = one(kGpt2Pattern);
  EXPECT_EQ(split(p,
                  "ab\xff"
                  "cd"),
            (S{"ab", "\xff", "cd"}));
  EXPECT_EQ(split(p, "\xc3"), (S{"\xc3"}));
  std::string all;
  for (auto& s : split(p, "x\x80\x80 y\xe2\x82")) all += s;
  EXPECT_EQ(all, "x\x80\x80 y\xe2\x82");
}

TEST(Pretokenizer, SequenceAndRemoved) {
  Pretokenizer p;
  p.add_split(",", true, SplitBehavior::removed);
  p.add_split(kGpt2Pattern);
  EXPECT_EQ(split(p, "a b,c d"), (S{"a", " b", "c", " d"}));
  Pretokenizer none;
  EXPECT_EQ(split(none, "as is"), (S{"as is"}));
}

TEST(Pretokenizer, BadRegexIsAUsageError) {
  try {
    Regex r("(unclosed");
    FAIL();
  } catch (const lumen::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("offset"), std::string::npos);
  }
}

TEST(Pretokenizer, JitWhenPcre2HasIt) {
  std::uint32_t jit = 0;
  pcre2_config(PCRE2_CONFIG_JIT, &jit);
  const Regex r(kGpt2Pattern);
  EXPECT_EQ(r.jit(), jit == 1);
}

}  // namespace test_pretokenizer
