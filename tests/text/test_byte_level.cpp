#include <gtest/gtest.h>

#include <set>

#include "lumen/text/byte_level.hpp"
#include "lumen/text/display.hpp"

using namespace lumen::text;

TEST(ByteLevel, MapIsABijectionOnPrintableCodePoints) {
  std::set<char32_t> seen;
  for (int b = 0; b < 256; ++b) {
    const char32_t c = byte_to_unicode(static_cast<unsigned char>(b));
    EXPECT_TRUE(seen.insert(c).second) << b;
    EXPECT_GT(c, 32u);
    EXPECT_LT(c, 324u);
  }
  EXPECT_EQ(byte_to_unicode(' '), U'\u0120');   // Ġ
  EXPECT_EQ(byte_to_unicode('\n'), U'\u010A');  // Ċ
  EXPECT_EQ(byte_to_unicode('a'), U'a');
  EXPECT_EQ(byte_to_unicode(0xAD), U'\u0143');  // soft hyphen is the last remapped byte
}

TEST(ByteLevel, RoundTripsEveryByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const std::string spelled = to_byte_level(all);
  auto back = from_byte_level(spelled);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, all);
  EXPECT_EQ(to_byte_level(" cat"), "\u0120cat");
  EXPECT_EQ(*from_byte_level("\u0120cat"), " cat");
}

TEST(ByteLevel, RejectsCodePointsOutsideTheMap) {
  EXPECT_FALSE(from_byte_level(" cat"));    // a real space is not a byte-level spelling
  EXPECT_FALSE(from_byte_level("\u2423"));  // ␣
  EXPECT_FALSE(from_byte_level("\xff"));    // not UTF-8
}

TEST(Display, LeadingSpaceAndControlsAreVisible) {
  EXPECT_EQ(display_piece(" cat"), "\u2423cat");
  EXPECT_EQ(display_piece("\n\n"), "\u21B5\u21B5");
  EXPECT_EQ(display_piece("\t\r"), "\u21E5\u240D");
  EXPECT_EQ(display_piece(std::string("\x0b", 1)), "\\x0b");
  EXPECT_EQ(display_piece("caf\xc3\xa9"), "caf\xc3\xa9");  // é stays
  EXPECT_EQ(display_piece("\xe2\x80"), "\\xe2\\x80");      // half of a 3-byte character
}

TEST(Display, ParseUndoesDisplay) {
  for (const std::string& s :
       std::vector<std::string>{" cat", "\n\n", "\t x\r", std::string("\x0b\x7f", 2), std::string("\xe2\x80", 2),
                                "plain", "caf\xc3\xa9", std::string(1, '\0')})
    EXPECT_EQ(parse_display(display_piece(s)), s);
  EXPECT_EQ(parse_display("\u2423cat"), " cat");
  EXPECT_EQ(parse_display("\\xZZ"), "\\xZZ");  // not an escape
}
