// lumen's one UTF-8 codec: well-formedness as Python's decoder sees it, and repair as its error handlers do.
#include <gtest/gtest.h>

#include <string>

#include "lumen/core/utf8.hpp"

namespace lumen {
namespace test_utf8 {

TEST(Utf8, EncodesAndDecodesEveryLengthAtItsBoundaries) {
  for (char32_t cp :
       {0x0u, 0x41u, 0x7fu, 0x80u, 0x7ffu, 0x800u, 0xd7ffu, 0xe000u, 0xfffdu, 0xffffu, 0x10000u, 0x10ffffu}) {
    std::string s;
    append_utf8(s, cp);
    EXPECT_EQ(s.size(), cp < 0x80      ? 1u
                        : cp < 0x800   ? 2u
                        : cp < 0x10000 ? 3u
                                       : 4u)
        << std::hex << static_cast<unsigned>(cp);
    std::size_t i = 0;
    const auto got = next_utf8(s, i);
    ASSERT_TRUE(got.has_value()) << std::hex << static_cast<unsigned>(cp);
    EXPECT_EQ(static_cast<unsigned>(*got), static_cast<unsigned>(cp));
    EXPECT_EQ(i, s.size());
    EXPECT_TRUE(valid_utf8(s));
  }
}

TEST(Utf8, RefusesWhatPythonsDecoderRefuses) {
  for (const char* bad : {"\xc0\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                          "\xf5\x80\x80\x80", "\xff", "\x80", "\xe2\x82", "\xf0\x9f\x98"}) {
    const std::string s(bad);
    EXPECT_FALSE(valid_utf8(s)) << s;
    EXPECT_EQ(utf8_invalid_at("ok" + s), 2u);
    std::size_t i = 0;
    EXPECT_FALSE(next_utf8(s, i).has_value());
    EXPECT_EQ(i, 1u);  // one byte at a time past what is not a character
  }
}

TEST(Utf8, RepairsEachMaximalInvalidSubpartAsOneReplacement) {
  // b'\xe2\x82A\xf0\x9f\x98B\xffC'.decode('utf-8', 'replace') == '\ufffdA\ufffdB\ufffdC'
  const std::string in =
      "\xe2\x82"
      "A\xf0\x9f\x98"
      "B\xff"
      "C";
  EXPECT_EQ(utf8_repair(in, true),
            "\xef\xbf\xbd"
            "A\xef\xbf\xbd"
            "B\xef\xbf\xbd"
            "C");
  EXPECT_EQ(utf8_repair(in, false), "ABC");
  std::size_t bad = 0;
  EXPECT_EQ(utf8_sequence(in, 0, bad), 0u);
  EXPECT_EQ(bad, 2u);
  EXPECT_EQ(utf8_sequence("\xe2\x82\xac", 0), 3u);  // the euro sign
}

TEST(Utf8, ExcerptsCutAtASequenceBoundaryAndSayTheLength) {
  EXPECT_EQ(utf8_excerpt("short", 120), "short");
  const std::string euros = "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac";  // 9 bytes
  EXPECT_EQ(utf8_excerpt(euros, 9), euros);
  EXPECT_EQ(utf8_excerpt(euros, 8), "\xe2\x82\xac\xe2\x82\xac... (9 bytes)");  // never half a sign
  EXPECT_EQ(utf8_excerpt(euros, 2), "... (9 bytes)");
  EXPECT_EQ(utf8_excerpt("\xff\xfe\xfd", 2), "\xff\xfe... (3 bytes)");  // invalid bytes count one each
  EXPECT_EQ(utf8_excerpt(std::string(100000, 'a')).size(), 120u + std::string("... (100000 bytes)").size());
}

}  // namespace test_utf8
}  // namespace lumen
