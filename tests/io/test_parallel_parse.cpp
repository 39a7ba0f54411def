// Text tables parse the same at every thread count: the same table, or the same error with the same line and
// byte offset. Small files run the bad-input corpus; large ones (over the 1 MB where the line scan splits and
// the 2048 rows where parsing splits) put each kind of bad row at the start, a range boundary and the end.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {
namespace {

using namespace lumen::io::test;

// What opening `path` gives: the table's shape and hashes, or the error's line, offset and message.
std::string outcome(const std::string& path, std::size_t threads, std::optional<Format> format = std::nullopt) {
  OpenOptions o;
  o.threads = threads;
  o.format = format;
  try {
    LoadReport r;
    const Table t = open_table(path, o, r);
    return fmt::format("ok {} x {} tokens {} values {} duplicates {}", t.V(), t.d(), tokens_hash(t), values_hash(t),
                       r.duplicates);
  } catch (const ParseError& e) {
    return fmt::format("ParseError line {} offset {}: {}", e.line(), e.offset(), e.what());
  } catch (const Error& e) {
    return fmt::format("Error: {}", e.what());
  }
}

void expect_same_at_every_thread_count(const std::string& path, std::optional<Format> format = std::nullopt) {
  const std::string one = outcome(path, 1, format);
  for (std::size_t threads : {2u, 3u, 8u}) EXPECT_EQ(outcome(path, threads, format), one) << "threads " << threads;
}

const char* const kBadRows[] = {
    "",               // a blank line inside the table
    "x 1",            // too few values
    "x 1 2 3 4",      // too many
    "x 1 two 3",      // not a number
    " 1 2 3",         // no word
    "x 1 2 3e",       // a cut exponent
    "bad\xff 1 2 3",  // invalid UTF-8
    // Values long enough (17 bytes before the row's end) for parse_float's two-load path, bad inside it:
    "x 0.1234567 0.12345x7 0.2500000",    // junk in the fraction
    "x -0.1234567 0.1234567e 0.2500000",  // a cut exponent
    "x 0.1234567 0.1234567.5 0.2500000",  // a second point
    "x 0.1234567 --0.123456 0.2500000",   // two signs
};

TEST(ParallelParse, BadInputCorpusGivesTheSameErrorAtEveryThreadCount) {
  ScratchDir dir;
  int k = 0;
  for (const char* bad : kBadRows) {
    expect_same_at_every_thread_count(
        dir.write(fmt::format("w{}.txt", k), fmt::format("3 3\na 1 2 3\n{}\nb 4 5 6\n", bad)));
    expect_same_at_every_thread_count(dir.write(fmt::format("g{}.txt", k), fmt::format("a 1 2 3\n{}\nb 4 5 6\n", bad)),
                                      Format::glove);
    ++k;
  }
  expect_same_at_every_thread_count(dir.write("cut.txt", "3 3\na 1 2 3\nb 4 5 6\nc 7 8"));
  expect_same_at_every_thread_count(dir.write("short.txt", "3 3\na 1 2 3\nb 4 5 6\n"));
  for (const char* corpus : {"fuzz_io_word2vec_text", "fuzz_io_glove", "fuzz_io_projector"})
    for (const auto& f : std::filesystem::directory_iterator(std::string(LUMEN_SOURCE_DIR) + "/fuzz/corpus/" + corpus))
      expect_same_at_every_thread_count(f.path().string());
}

// 40,000 good rows (about 1.4 MB) with one bad row at `at` (0-based row): the error names line at + 2.
std::string big_table_with(const std::string& bad, std::size_t at, std::size_t rows = 40000) {
  std::string text = fmt::format("{} 3\n", rows);
  for (std::size_t i = 0; i < rows; ++i)
    text += i == at ? bad + "\n" : fmt::format("w{} {:.6f} {:.6f} {:.6f}\n", i, i * 1e-4, -0.5, 3.25);
  return text;
}

TEST(ParallelParse, LargeTablesKeepExactLinesAndTheFirstErrorAtEveryThreadCount) {
  ScratchDir dir;
  for (std::size_t at : {0u, 1u, 13333u, 19999u, 20000u, 39999u}) {
    for (const char* bad : kBadRows) {
      const std::string path = dir.write("big.txt", big_table_with(bad, at));
      expect_same_at_every_thread_count(path);
      OpenOptions o;
      o.threads = 2;
      try {
        open_table(path, o);
        ADD_FAILURE() << "no error for row " << at << ": '" << bad << "'";
      } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), at + 2) << e.what();
      }
    }
  }
  // Two bad rows in different ranges: the first one is reported.
  std::string two = big_table_with("x 1", 30000);
  two.replace(two.find("\nw5 ") + 1, 2, "  ");  // row 5 (line 7) now starts with blanks: no word
  const std::string path = dir.write("two.txt", two);
  expect_same_at_every_thread_count(path);
  try {
    open_table(path, {.threads = 2});
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 7u) << e.what();
  }
}

TEST(ParallelParse, LargeTablesWithDuplicatesBlankTailsAndCrlfAreTheSameAtEveryThreadCount) {
  ScratchDir dir;
  std::string text = "30000 2\r\n";
  for (int i = 0; i < 30000; ++i) text += fmt::format("w{} {} {:.7g}\r\n", i % 29000, i, i / 3.0);
  text += "\r\n \n\t\n";
  expect_same_at_every_thread_count(dir.write("dups.txt", text));
  std::string glove;
  for (int i = 0; i < 30000; ++i) glove += fmt::format("g{} {} {}\n", i, i, -i);
  glove += "g-last 1 2";  // no final newline
  expect_same_at_every_thread_count(dir.write("glove.txt", glove), Format::glove);
  const Table t = open_table(dir.path() + "/glove.txt", {.threads = 2});
  EXPECT_EQ(t.V(), 30001u);
  EXPECT_EQ(t.vocab.token(30000), "g-last");
}

}  // namespace
}  // namespace lumen::io
