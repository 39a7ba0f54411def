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
namespace test_parallel_parse {

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
  for (std::size_t threads : {2u, 3u, 8u, 32u}) EXPECT_EQ(outcome(path, threads, format), one) << "threads " << threads;
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

// Over 8 MB, so that the text is read in several slices (4 MB at 2 and 3 threads, 320 kB at 32) taken in turn by
// whichever thread is free: some parsed straight into E, others held until the slices before them are counted,
// some threads waiting with all their buffers held. Bad rows at the start, inside and at the end of the later
// slices, rows past the header's count (never parsed, so never an error), and a header promising more rows than
// there are.
TEST(ParallelParse, TablesOfSeveralSlicesKeepExactLinesAtEveryThreadCount) {
  ScratchDir dir;
  constexpr std::size_t kRows = 300000;  // about 10.6 MB of rows of 3 values
  std::string rows;
  std::vector<std::size_t> row_at;  // byte offset of each row within `rows`
  for (std::size_t i = 0; i < kRows; ++i) {
    row_at.push_back(rows.size());
    rows += fmt::format("w{} {:.6f} {:.6f} {:.6f}\n", i, i * 1e-5, -0.5, 3.25);
  }
  const std::string header = fmt::format("{} 3\n", kRows);
  const std::string good = dir.write("good.txt", header + rows);
  expect_same_at_every_thread_count(good);
  const Table t = open_table(good, {.threads = 3});
  ASSERT_EQ(t.V(), kRows);
  EXPECT_EQ(t.vocab.token(kRows - 1), fmt::format("w{}", kRows - 1));
  EXPECT_FLOAT_EQ(t.E.at(kRows - 1, 0), static_cast<float>(std::stod(fmt::format("{:.6f}", (kRows - 1) * 1e-5))));

  // Rows whose line starts just before, at and just after each 4 MB slice boundary of the file, and the last.
  std::vector<std::size_t> bad_rows = {kRows - 1};
  for (std::size_t boundary : {4u << 20, 8u << 20})
    for (std::size_t i = 1; i < kRows; ++i)
      if (header.size() + row_at[i] >= boundary) {
        bad_rows.insert(bad_rows.end(), {i - 1, i, i + 1});
        break;
      }
  for (const std::size_t at : bad_rows) {
    std::string text = header + rows;
    const std::size_t b = header.size() + row_at[at];
    text.replace(b, text.find('\n', b) - b, "x 1");
    const std::string path = dir.write("bad.txt", text);
    expect_same_at_every_thread_count(path);
    try {
      open_table(path, {.threads = 2});
      ADD_FAILURE() << "no error for row " << at;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), at + 2) << e.what();
      EXPECT_EQ(e.offset(), b + 3) << e.what();  // after "x 1": the second value is missing
    }
  }

  // A header promising fewer rows: the rest are ignored, even when they are not rows at all.
  const std::string fewer = dir.write("fewer.txt", fmt::format("{} 3\n", kRows / 2) + rows + "not a row\n");
  expect_same_at_every_thread_count(fewer);
  EXPECT_EQ(open_table(fewer, {.threads = 2}).V(), kRows / 2);
  // A header promising more: the count of rows found, at every thread count.
  const std::string more = dir.write("more.txt", fmt::format("{} 3\n", kRows + 5) + rows);
  expect_same_at_every_thread_count(more);
  EXPECT_THAT(outcome(more, 2), ::testing::HasSubstr(fmt::format("the file has {}", kRows)));
  // GloVe (no header) of several slices, with an error only in the last slice.
  std::string glove = rows;
  glove.replace(row_at[kRows - 2], 2, "  ");
  expect_same_at_every_thread_count(dir.write("glove.txt", glove), Format::glove);
  expect_same_at_every_thread_count(dir.write("glove-good.txt", rows + "\n\n"), Format::glove);
}

// Rows longer than the chunk a thread copies the text in (256 kB): the copy grows to hold a whole row, and a bad
// value deep inside such a row is reported at its exact line and byte offset at every thread count.
TEST(ParallelParse, RowsLongerThanTheCopiedChunkParseWhole) {
  ScratchDir dir;
  constexpr std::size_t kRows = 12, kDim = 60000;  // rows of about 600 kB, 7 MB in all
  std::string rows;
  std::vector<std::size_t> row_at;
  for (std::size_t i = 0; i < kRows; ++i) {
    row_at.push_back(rows.size());
    rows += fmt::format("w{}", i);
    for (std::size_t k = 0; k < kDim; ++k) rows += fmt::format(" {:.6f}", static_cast<double>(i * kDim + k) * 1e-7);
    rows += '\n';
  }
  const std::string header = fmt::format("{} {}\n", kRows, kDim);
  const std::string good = dir.write("long.txt", header + rows);
  expect_same_at_every_thread_count(good);
  const Table t = open_table(good, {.threads = 2});
  ASSERT_EQ(t.V(), kRows);
  ASSERT_EQ(t.d(), kDim);
  for (std::size_t i : {0u, 5u, 11u})
    for (std::size_t k : {0u, 30000u, 59999u})
      EXPECT_EQ(t.E.at(i, k), static_cast<float>(std::stod(fmt::format("{:.6f}", (i * kDim + k) * 1e-7))));
  expect_same_at_every_thread_count(dir.write("long-glove.txt", rows), Format::glove);

  // Value 50001 of row 7 spoiled: the offset is that value's, 500 kB into its line.
  std::string text = header + rows;
  const std::size_t line = header.size() + row_at[7];
  std::size_t value = text.find(' ', line);
  for (int k = 0; k < 50000; ++k) value = text.find(' ', value + 1);
  text[value + 3] = 'x';
  const std::string bad = dir.write("long-bad.txt", text);
  expect_same_at_every_thread_count(bad);
  try {
    open_table(bad, {.threads = 2});
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 9u) << e.what();
    EXPECT_EQ(e.offset(), value + 1) << e.what();
    EXPECT_THAT(e.what(), ::testing::HasSubstr("value 50001 of 60000")) << e.what();
  }
}

}  // namespace test_parallel_parse
}  // namespace lumen::io
