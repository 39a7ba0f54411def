// word2vec text, GloVe and projector TSV: shape checks, bad input, NaN/Inf, duplicates, UTF-8, --limit, dtypes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include "io_test_util.hpp"

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/summary.hpp"

namespace lumen::io {
namespace test_text_reader {

using namespace lumen::io::test;
using ::testing::HasSubstr;

// The ParseError open_table throws for `bytes`, checked for the line and a phrase of the message.
void expect_parse_error(const std::string& bytes, std::uint64_t line, const std::string& phrase, OpenOptions o = {}) {
  ScratchDir dir;
  const std::string path = dir.write("t.txt", bytes);
  try {
    open_table(path, o);
    FAIL() << "no error for:\n" << bytes.substr(0, 200);
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_THAT(e.what(), HasSubstr(phrase));
    EXPECT_THAT(e.what(), HasSubstr(path));
  }
}

// Options that read a file as `format` rather than detecting it.
OpenOptions read_as(Format format) {
  OpenOptions o;
  o.format = format;
  return o;
}

TEST(TextReader, Word2VecTextBasics) {
  ScratchDir dir;
  const Table t = open_table(dir.write("a.txt", "2 3\nthe 0.5 -1 2e-3\nof +1.25 .5 7.\n"));
  EXPECT_EQ(t.format, "word2vec-text");
  ASSERT_EQ(t.V(), 2u);
  ASSERT_EQ(t.d(), 3u);
  EXPECT_EQ(t.vocab.token(1), "of");
  EXPECT_FLOAT_EQ(t.E.at(0, 2), 2e-3f);
  EXPECT_FLOAT_EQ(t.E.at(1, 0), 1.25f);
  EXPECT_FLOAT_EQ(t.E.at(1, 1), 0.5f);
  EXPECT_FLOAT_EQ(t.E.at(1, 2), 7.0f);
}

TEST(TextReader, TrailingSpacesCrlfTabsAndFinalNewlineAreFine) {
  ScratchDir dir;
  const Table t = open_table(dir.write("a.vec", "2 2\r\nx 1 2 \r\ny\t3\t4"));
  ASSERT_EQ(t.V(), 2u);
  EXPECT_FLOAT_EQ(t.E.at(1, 1), 4.0f);
  const Table g = open_table(dir.write("g.txt", "x 1 2\ny 3 4\n\n\n"));
  EXPECT_EQ(g.format, "glove");
  EXPECT_EQ(g.V(), 2u);
}

TEST(TextReader, EmptyFile) { expect_parse_error("", 0, "empty file"); }

TEST(TextReader, HeaderClaimingHugeRowsFailsBeforeAllocating) {
  // Rows are counted in the file, never allocated from the header: the error names where the file ends.
  expect_parse_error("1000000000000 3\nthe 1 2 3\n", 3, "the header promises 1000000000000 rows, the file has 1");
  expect_parse_error("2 99999999999999999\nthe 1\n", 1, "header claims 99999999999999999 values per row");
  const OpenOptions o = read_as(Format::word2vec_text);
  expect_parse_error("18446744073709551615 18446744073709551615\n", 1, "values per row", o);
  expect_parse_error("18446744073709551615 1\na 1\n", 3, "promises 18446744073709551615 rows", o);
}

TEST(TextReader, BadHeader) {
  const OpenOptions o = read_as(Format::word2vec_text);
  expect_parse_error("two three\nx 1 2\n", 1, "expected a header line 'rows dim'", o);
  expect_parse_error("-2 3\nx 1 2 3\n", 1, "expected a header line", o);
  expect_parse_error("2 0\nx\ny\n", 1, "dim 0", o);
}

// A table with no rows or no columns is refused by every reader (it used to open, and convert, as V = 0).
TEST(TextReader, EmptyTablesAreRefused) {
  expect_parse_error("0 5\n", 1, "header says 0 rows");
  expect_parse_error("0 0\n", 1, "dim 0");
  expect_parse_error("\n\n", 1, "no rows", read_as(Format::glove));
}

// Line numbers are the file's own: blank lines count, and a file cut inside a row names that row's line.
TEST(TextReader, LineNumbersAreTheFilesOwn) {
  expect_parse_error("2 2\n\na 1 2\n", 2, "an empty line");
  expect_parse_error("3 2\na 1 2\nb 1 2\n\n", 4, "the header promises 3 rows, the file has 2");
  // the first error in the file, even when a later row is the short one checked before allocating
  expect_parse_error("3 2\n 1 2\nb 1 2\nc 1\n", 2, "a leading space");
  expect_parse_error("a 1 2\n\nb 1 2\n", 2, "an empty line", read_as(Format::glove));
  // cut inside row 3 (line 4): that line is named, not the line after the end
  expect_parse_error("3 2\na 1 2\nb 3 4\nc 5", 4, "expected 2 values after the word, found 1");
  expect_parse_error("4 2\na 1 2\nb 3 4\nc 5 6", 4, "the file ends inside this line");
  expect_parse_error("3 2\na 1 2\nb 3 4\nc", 4, "found 0");
}

TEST(TextReader, TruncatedFileNamesTheLine) {
  expect_parse_error("3 2\na 1 2\nb 3 4\n", 4, "the header promises 3 rows, the file has 2");
  expect_parse_error("3 2\na 1 2\nb 3", 3, "expected 2 values after the word, found 1");
}

TEST(TextReader, RowLengthChecked) {
  expect_parse_error("2 3\na 1 2 3\nb 3 4\n", 3, "expected 3 values after the word, found 2");
  expect_parse_error("2 3\na 1 2 3\nb 3 4 5 6 7\n", 3, "expected 3 values after the word, found 5");
  expect_parse_error("a 1 2 3\nb 1 2 3\nc 3 4\n", 3, "found 2");  // GloVe: every row against the first
  expect_parse_error("2 2\na 1 2\n\nb 1 2\n", 3, "empty line");
}

TEST(TextReader, NonNumericFieldsNamed) {
  expect_parse_error("2 3\na 1 2 3\nb 3 x4 5\n", 3, "expected a number for value 2 of 3, got 'x4'");
  expect_parse_error("a 1 2\nb 1 2,5\n", 2, "got '2,5'");
  try {
    ScratchDir dir;
    open_table(dir.write("t.txt", "1 2\nword 0.1 zz\n"));
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 4u + 9u);  // byte offset of the bad field in the file
  }
}

TEST(TextReader, ValuesAreCorrectlyRoundedLikePythonFloat) {
  // Python's float(text) is the correctly rounded double (strtod); gensim then rounds it to float32. Every
  // spelling (short, 9 and 17 digits, exponents, tiny and huge magnitudes) must give exactly that.
  Rng rng(3);
  std::string text;
  std::vector<std::string> fields;
  for (int i = 0; i < 4000; ++i) {
    const double mag = std::pow(10.0, static_cast<double>(rng.uniform() * 80.0 - 40.0));
    const double v = (rng.uniform() - 0.5) * mag;
    for (const char* f : {"{:.6f}", "{:.9g}", "{:.17g}", "{:e}", "{:.3e}", "{}"})
      fields.push_back(fmt::format(fmt::runtime(f), v));
  }
  fields.push_back("12345678901234567890123");
  fields.push_back("0.000000000000000000000000000000000000000000001");
  fields.push_back("1e-46");
  fields.push_back("3.4028235677973366e38");
  fields.push_back("-0.0");
  fields.push_back("1E5");
  text = fmt::format("{} 1\n", fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) text += fmt::format("w{} {}\n", i, fields[i]);
  ScratchDir dir;
  const Table t = open_table(dir.write("r.txt", text));
  ASSERT_EQ(t.V(), fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const float want = static_cast<float>(std::strtod(fields[i].c_str(), nullptr));
    EXPECT_EQ(std::bit_cast<std::uint32_t>(t.E.at(i, 0)), std::bit_cast<std::uint32_t>(want)) << fields[i];
  }
  expect_parse_error("1 1\na +-1\n", 2, "expected a number");
  expect_parse_error("1 1\na 1e\n", 2, "expected a number");
  expect_parse_error("1 1\na .\n", 2, "expected a number");
}

TEST(TextReader, NanAndInfAreKeptAndCounted) {
  // Decision (docs/formats.md): like gensim, non-finite values load; `lumen info` counts them.
  ScratchDir dir;
  const Table t = open_table(dir.write("n.txt", "3 2\na nan 1\nb inf -inf\nc 3 4\n"));
  const Summary s = summarize(t.E);
  EXPECT_EQ(s.nan, 1u);
  EXPECT_EQ(s.inf, 2u);
  EXPECT_EQ(s.nonfinite_rows, 2u);
  EXPECT_DOUBLE_EQ(s.norm_max, 5.0);
  // Beyond float range: Inf (as numpy.float32(float('1e39'))).
  const Table big = open_table(dir.write("b.txt", "1 2\na 1e39 1e-50\n"));
  EXPECT_TRUE(std::isinf(big.E.at(0, 0)));
  EXPECT_EQ(big.E.at(0, 1), 0.0f);
}

// `lumen info` names the rows holding NaN/Inf: the first max_named of them, in row order, at any thread count.
TEST(Summary, NamesTheFirstNonFiniteRowsUpToTheBound) {
  Matrix E(5000, 3, DType::f32);
  auto v = E.f32_mut();
  for (std::size_t r = 0; r < 5000; ++r)
    for (std::size_t c = 0; c < 3; ++c) v[r * 3 + c] = r % 7 == 3 ? std::nanf("") : 1.0f;
  for (std::size_t threads : {1u, 2u, 4u}) {
    const Summary s = summarize(E, threads, 10);
    EXPECT_EQ(s.nonfinite_rows, 714u);
    ASSERT_EQ(s.nonfinite_ids.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(s.nonfinite_ids[i], 3 + 7 * i);
  }
  EXPECT_EQ(summarize(E, 2).nonfinite_ids.size(), 714u);  // under the default bound: all of them
}

TEST(TextReader, DuplicatesKeepTheFirstAndAreCounted) {
  ScratchDir dir;
  LoadReport r;
  const Table t = open_table(dir.write("d.txt", "4 1\na 1\nb 2\na 3\nb 4\n"), {}, r);
  ASSERT_EQ(t.V(), 2u);
  EXPECT_EQ(r.duplicates, 2u);
  EXPECT_EQ(r.rows_read, 4u);
  EXPECT_EQ(r.first_duplicate, "a");
  EXPECT_FLOAT_EQ(t.E.at(0, 0), 1.0f);
  EXPECT_FLOAT_EQ(t.E.at(1, 0), 2.0f);
}

TEST(TextReader, InvalidUtf8StrictReplaceIgnore) {
  const std::string bytes = "2 1\nok 1\nbad\xff\xfeword 2\n";
  expect_parse_error(bytes, 3, "invalid UTF-8");
  ScratchDir dir;
  const std::string path = dir.write("u.txt", bytes);
  OpenOptions o;
  o.unicode_errors = UnicodeErrors::replace;
  LoadReport r;
  EXPECT_EQ(open_table(path, o, r).vocab.token(1), "bad\xef\xbf\xbd\xef\xbf\xbdword");
  EXPECT_EQ(r.repaired_tokens, 1u);
  o.unicode_errors = UnicodeErrors::ignore;
  EXPECT_EQ(open_table(path, o).vocab.token(1), "badword");
  // A truncated multi-byte character (word2vec.c cuts words at a byte limit) is one U+FFFD, as in Python.
  o.unicode_errors = UnicodeErrors::replace;
  EXPECT_EQ(open_table(dir.write("t.txt", "1 1\n\xd0\x9f\xd1 1\n"), o).vocab.token(0), "\xd0\x9f\xef\xbf\xbd");
}

TEST(TextReader, GarbageIsRejected) {
  expect_parse_error(std::string("\x01\x02garbage\x00\xff\n", 12), 1, "unrecognised table format");
  expect_parse_error("hello world\nthis is text\n", 1, "unrecognised table format");
}

TEST(TextReader, LimitReadsTheFirstRows) {
  ScratchDir dir;
  OpenOptions o;
  o.limit = 2;
  // Rows after the limit are not even parsed (like gensim's limit).
  const Table t = open_table(dir.write("l.txt", "4 1\na 1\nb 2\nc oops\n"), o);
  EXPECT_EQ(t.V(), 2u);
  const Table g = open_table(dir.write("g.txt", "a 1\nb 2\nc 3\n"), o);
  EXPECT_EQ(g.V(), 2u);
}

TEST(TextReader, StorageTypes) {
  ScratchDir dir;
  const std::string p = dir.write("s.txt", "1 3\na 1.0009765625 3.14159 -65520\n");
  OpenOptions o;
  o.dtype = DType::f16;
  const Table h = open_table(p, o);
  EXPECT_EQ(h.E.dtype(), DType::f16);
  EXPECT_EQ(h.E.at(0, 0), 1.0009765625f);  // exactly representable in f16
  EXPECT_TRUE(std::isinf(h.E.at(0, 2)));   // beyond f16's range
  o.dtype = DType::bf16;
  const Table b = open_table(p, o);
  EXPECT_EQ(b.E.dtype(), DType::bf16);
  EXPECT_NEAR(b.E.at(0, 1), 3.14159f, 0.02f);
}

TEST(TextReader, ProjectorTsvWithMetadata) {
  ScratchDir dir;
  dir.write("metadata.tsv", "alpha\nbeta\n");
  const Table t = open_table(dir.write("vectors.tsv", "1\t2\n3\t4\n"));
  EXPECT_EQ(t.format, "projector-tsv");
  EXPECT_EQ(t.vocab.token(1), "beta");
  EXPECT_FLOAT_EQ(t.E.at(1, 0), 3.0f);
  OpenOptions lim;
  lim.limit = 1;
  const Table one = open_table(dir.file("vectors.tsv"), lim);
  ASSERT_EQ(one.V(), 1u);
  EXPECT_EQ(one.vocab.token(0), "alpha");
  dir.write("metadata.tsv", "alpha\n");  // one name for two rows
  EXPECT_THROW(open_table(dir.file("vectors.tsv")), ParseError);
  ScratchDir bare;
  const Table n = open_table(bare.write("v.tsv", "1\t2\n3\t4\n"));
  EXPECT_EQ(n.vocab.token(1), "1");  // rows named by id
}

}  // namespace test_text_reader
}  // namespace lumen::io
