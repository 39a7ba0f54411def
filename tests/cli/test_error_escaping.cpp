// Errors and warnings may quote bytes from a user's file; on stderr, control characters (a terminal would obey
// ESC [2J or retitle its window) and invalid UTF-8 are shown escaped as \xNN, and valid UTF-8 is kept.
#include <gtest/gtest.h>
#include <unistd.h>

#include "cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <string>

namespace test_error_escaping {

using lumen_cli::CliRun;

std::string write_temp(const std::string& name, const std::string& bytes) {
  const auto path =
      std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name);  // one name per test process
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

// True if s holds a C0 control other than the newline that ends each message, DEL, or a byte >= 0x80 that is not
// part of well-formed UTF-8 (a coarse check: lead byte followed by the right number of continuation bytes).
bool has_raw_control_or_bad_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return true;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return true;
    i += n;
  }
  return false;
}

TEST(ErrorEscaping, ParseErrorQuotingFileBytesIsEscaped) {
  const std::string t = write_temp("lumen-escape-parse.vec", "2 2\nok 1 0.5\nbad 1 \x1b[2J\xff\x07\n");
  const CliRun r = lumen_cli::run_cli("info '" + t + "'");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(has_raw_control_or_bad_utf8(r.err)) << r.err;
  EXPECT_NE(r.err.find("\\x1b[2J\\xff\\x07"), std::string::npos) << r.err;
  std::filesystem::remove(t);
}

TEST(ErrorEscaping, WarningQuotingAWordIsEscapedAndUtf8Kept) {
  const std::string word =
      "\x1b]0;pwned\x07\xc2\x9b"
      "31m";  // OSC retitle, then an 8-bit CSI (U+009B)
  const std::string t =
      write_temp("lumen-escape-dup.vec", "4 2\n" + word + " 1 0\n" + word + " 0 1\nпривет 1 1\nok 0.5 0.5\n");
  const CliRun r = lumen_cli::run_cli("similarity '" + t + "' привет ok");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("duplicate"), std::string::npos) << r.err;
  EXPECT_FALSE(has_raw_control_or_bad_utf8(r.err)) << r.err;
  EXPECT_EQ(r.err.find("\xc2\x9b"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x1b]0;pwned\\x07\\xc2\\x9b31m"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("привет"), std::string::npos) << r.out;  // stdout is not touched
  std::filesystem::remove(t);
}

TEST(ErrorEscaping, ValidUtf8InAnErrorIsKept) {
  const CliRun r = lumen_cli::run_cli("neighbours toy 'кошка\x1b[1m'");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("кошка\\x1b[1m"), std::string::npos) << r.err;
  EXPECT_FALSE(has_raw_control_or_bad_utf8(r.err)) << r.err;
}

TEST(ErrorEscaping, OverlongFormsSurrogatesAndCutSequencesAreEscapedByteByByte) {
  // "/" as an overlong 2-byte form, a UTF-16 surrogate (U+D800) and a 3-byte lead with one byte after it.
  const CliRun r = lumen_cli::run_cli("neighbours toy 'a\xc0\xaf\xed\xa0\x80\xe2\x82'");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("a\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82"), std::string::npos) << r.err;
  EXPECT_FALSE(has_raw_control_or_bad_utf8(r.err)) << r.err;
}

// A word read from stdin may hold a NUL byte; the error names the whole word (a C string would stop at the NUL).
TEST(ErrorEscaping, AWordWithANulByteIsNamedWhole) {
  const CliRun r = lumen_cli::run_cli("neighbours toy", {.input = std::string("ki\0ngdom\n", 9)});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("ki\\x00ngdom"), std::string::npos) << r.err;
  EXPECT_FALSE(has_raw_control_or_bad_utf8(r.err)) << r.err;
}

}  // namespace test_error_escaping
