// The block-at-a-time row scanner (src/io/text_row_fast.hpp) against the reference: the values it reads are
// parse_float_reference's bit for bit, and every row it does not take (anything but single spaces, "-d.d" values
// and a '\n') it refuses, leaving the row to the general scanner. A table read both ways is the same table.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "../../src/io/text_row_fast.hpp"
#include "io_test_util.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/parse_float.hpp"

namespace lumen::io {
namespace {

using detail::kRowScanPadding;
using detail::scan_values_fast;

// A value of the common spelling: an optional '-', 1-7 digits, '.', 1-7 digits.
std::string common_value(Rng& rng) {
  std::string s = rng.below(2) == 0 ? "-" : "";
  const auto digits = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) s += static_cast<char>('0' + rng.below(10));
  };
  digits(1 + rng.below(7));
  s += '.';
  digits(1 + rng.below(7));
  return s;
}

// Scans `row` (from its first space) in a buffer padded as the reader pads its copies; tend: the row's end.
struct Scan {
  const char* end = nullptr;
  std::size_t offset = 0;  // of end in row
  std::vector<float> values;
};
Scan scan(const std::string& row, std::size_t dim, std::size_t tend_at, std::size_t from = 0) {
  std::vector<char> buf(row.size() + kRowScanPadding, '\0');
  std::memcpy(buf.data(), row.data(), row.size());
  Scan s;
  s.values.assign(dim, 0.0f);
  s.end = scan_values_fast(buf.data() + from, buf.data() + tend_at, dim, s.values.data());
  if (s.end != nullptr) s.offset = static_cast<std::size_t>(s.end - buf.data());
  return s;
}

TEST(TextRowFast, CommonRowsAreReadAsTheReferenceReadsThem) {
  Rng rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t dim = 1 + rng.below(60);
    std::vector<std::string> values;
    std::string row;
    for (std::size_t k = 0; k < dim; ++k) row += ' ' + values.emplace_back(common_value(rng));
    const std::size_t newline = row.size();
    row += '\n';
    if (rng.below(2) == 0) row += "w1 0.5 0.25\n";  // a next row, past tend or not
    const std::size_t tend = rng.below(2) == 0 ? newline : row.size() - 1;
    const Scan s = scan(row, dim, tend);
    ASSERT_NE(s.end, nullptr) << row;
    EXPECT_EQ(s.offset, newline);
    for (std::size_t k = 0; k < dim; ++k) {
      float want = 0;
      ASSERT_NE(parse_float_reference(values[k].data(), values[k].data() + values[k].size(), want), nullptr);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(s.values[k]), std::bit_cast<std::uint32_t>(want))
          << values[k] << " in " << row;
    }
  }
}

TEST(TextRowFast, EveryOtherRowIsLeftToTheGeneralScanner) {
  const std::string pad = " 0.125 -1.5 22.75";  // values before the odd one, so that it is not always first
  const char* const odd[] = {
      " 1.5  2.5",        // two spaces
      " 1.5\t2.5",        // a tab
      " 1.5 2.5\r",       // CRLF
      " 1.5 2.5 ",        // a trailing space
      " 1e-05 2.5",       // an exponent
      " 1.5e3 2.5",       // an exponent after a point
      " +1.5 2.5",        // a plus sign
      " 1 2.5",           // no point
      " .5 2.5",          // no integer digits
      " 5. 2.5",          // no fraction digits
      " 12345678.5 2.5",  // 8 integer digits
      " 1.12345678 2.5",  // 8 fraction digits
      " 1.5.5 2.5",       // two points
      " --1.5 2.5",       // two signs
      " 1.-5 2.5",        // a sign inside
      " nan 2.5",         // words
      " 1.5",             // too few values
      " 1.5 2.5 3.5",     // too many
      " 1,5 2.5",         // a comma
  };
  for (const char* o : odd) {
    const std::string row = pad + o + "\n";
    EXPECT_EQ(scan(row, 5, row.size() - 1).end, nullptr) << '"' << row << '"';
  }
  // The same rows in the common spelling are taken (so the refusals above are the odd values' doing).
  const std::string good = pad + " 1.5 2.5\n";
  EXPECT_NE(scan(good, 5, good.size() - 1).end, nullptr);
  // A value of over 62 bytes cannot be seen whole in a block.
  const std::string wide = " " + std::string(70, '1') + "\n";
  EXPECT_EQ(scan(wide, 1, wide.size() - 1).end, nullptr);
  // A row whose '\n' lies past tend: the bytes after tend are not this row's.
  const std::string cut = " 1.5 2.5 3.5\n";
  EXPECT_EQ(scan(cut, 3, 6).end, nullptr);
  EXPECT_EQ(scan(cut, 3, cut.size() - 2).end, nullptr);
  // The text's end as tend (no newline: the padding's zeros): refused, the general scanner ends such a row.
  const std::string last = " 1.5 2.5";
  EXPECT_EQ(scan(last, 2, last.size()).end, nullptr);
}

TEST(TextRowFast, ValuesAcrossBlockBoundariesAtEveryAlignment) {
  Rng rng(11);
  for (std::size_t shift = 0; shift < 64; ++shift) {
    std::string row(shift, 'x');  // the row starts `shift` bytes into the buffer
    std::vector<std::string> values;
    for (int k = 0; k < 40; ++k) row += ' ' + values.emplace_back(common_value(rng));
    row += '\n';
    const Scan s = scan(row, 40, row.size() - 1, shift);
    ASSERT_NE(s.end, nullptr) << shift;
    for (std::size_t k = 0; k < 40; ++k) {
      float want = 0;
      parse_float_reference(values[k].data(), values[k].data() + values[k].size(), want);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(s.values[k]), std::bit_cast<std::uint32_t>(want)) << shift;
    }
  }
}

// One table written with spaces (the block scanner's rows) and with tabs (the general scanner's): the same table.
TEST(TextRowFast, ATableReadEitherWayIsTheSame) {
  test::ScratchDir dir;
  Rng rng(3);
  std::string spaced = "300 40\n", tabbed = "300 40\n";
  for (int i = 0; i < 300; ++i) {
    spaced += fmt::format("w{}", i), tabbed += fmt::format("w{}", i);
    for (int k = 0; k < 40; ++k) {
      const std::string v = common_value(rng);
      spaced += ' ' + v, tabbed += '\t' + v;
    }
    spaced += '\n', tabbed += '\n';
  }
  const Table a = open_table(dir.write("spaced.txt", spaced), {});
  const Table b = open_table(dir.write("tabbed.txt", tabbed), {});
  ASSERT_EQ(a.V(), 300u);
  ASSERT_EQ(b.V(), 300u);
  EXPECT_EQ(test::values_hash(a), test::values_hash(b));
  EXPECT_EQ(test::tokens_hash(a), test::tokens_hash(b));
}

}  // namespace
}  // namespace lumen::io
