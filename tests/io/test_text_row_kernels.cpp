// The block-at-a-time row scanners (src/io/text_row_kernel_table.hpp), every variant this CPU runs, against the
// reference: the values they read are parse_float_reference's bit for bit, and every row they do not take
// (anything but single spaces, "-d.d" values and a '\n') they refuse, leaving the row to the general scanner.
// Every variant takes and refuses the same rows. A table read both ways is the same table.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "../../src/io/text_row_kernels.hpp"
#include "io_test_util.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/parse_float.hpp"

namespace lumen::io {
namespace test_text_row_kernels {

using text_row_kernels::kRowScanPadding;

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
Scan scan(Isa isa, const std::string& row, std::size_t dim, std::size_t tend_at, std::size_t from = 0) {
  std::vector<char> buf(row.size() + kRowScanPadding, '\0');
  std::memcpy(buf.data(), row.data(), row.size());
  Scan s;
  s.values.assign(dim, 0.0f);
  s.end = text_row_kernels::table(isa).scan_values(buf.data() + from, buf.data() + tend_at, dim, s.values.data());
  if (s.end != nullptr) s.offset = static_cast<std::size_t>(s.end - buf.data());
  return s;
}

TEST(TextRowKernels, CommonRowsAreReadAsTheReferenceReadsThem) {
  for (Isa isa : available_isas()) {
    SCOPED_TRACE(isa_name(isa));
    Rng rng(7);
    for (int trial = 0; trial < 2000; ++trial) {
      // Up to 200 values: the AVX-512 variant lists 64 or more before it reads them.
      const std::size_t dim = 1 + rng.below(trial % 4 == 0 ? 200 : 60);
      std::vector<std::string> values;
      std::string row;
      for (std::size_t k = 0; k < dim; ++k) row += ' ' + values.emplace_back(common_value(rng));
      const std::size_t newline = row.size();
      row += '\n';
      if (rng.below(2) == 0) row += "w1 0.5 0.25\n";  // a next row, past tend or not
      const std::size_t tend = rng.below(2) == 0 ? newline : row.size() - 1;
      const Scan s = scan(isa, row, dim, tend);
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
}

TEST(TextRowKernels, EveryOtherRowIsLeftToTheGeneralScanner) {
  for (Isa isa : available_isas()) {
    SCOPED_TRACE(isa_name(isa));
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
        " 2.5 1.5.5",       // two points in the last value
        " --1.5 2.5",       // two signs
        " 1.-5 2.5",        // a sign inside
        " nan 2.5",         // words
        " 1.5",             // too few values
        " 1.5 2.5 3.5",     // too many
        " 1,5 2.5",         // a comma
    };
    for (const char* o : odd) {
      const std::string row = pad + o + "\n";
      EXPECT_EQ(scan(isa, row, 5, row.size() - 1).end, nullptr) << '"' << row << '"';
    }
    // The same rows in the common spelling are taken (so the refusals above are the odd values' doing).
    const std::string good = pad + " 1.5 2.5\n";
    EXPECT_NE(scan(isa, good, 5, good.size() - 1).end, nullptr);
    // A value of over 62 bytes cannot be seen whole in a block.
    const std::string wide = " " + std::string(70, '1') + "\n";
    EXPECT_EQ(scan(isa, wide, 1, wide.size() - 1).end, nullptr);
    // A row whose '\n' lies past tend: the bytes after tend are not this row's.
    const std::string cut = " 1.5 2.5 3.5\n";
    EXPECT_EQ(scan(isa, cut, 3, 6).end, nullptr);
    EXPECT_EQ(scan(isa, cut, 3, cut.size() - 2).end, nullptr);
    // The text's end as tend (no newline: the padding's zeros): refused, the general scanner ends such a row.
    const std::string last = " 1.5 2.5";
    EXPECT_EQ(scan(isa, last, 2, last.size()).end, nullptr);
  }
}

TEST(TextRowKernels, ValuesAcrossBlockBoundariesAtEveryAlignment) {
  for (Isa isa : available_isas()) {
    SCOPED_TRACE(isa_name(isa));
    Rng rng(11);
    for (std::size_t shift = 0; shift < 64; ++shift) {
      std::string row(shift, 'x');  // the row starts `shift` bytes into the buffer
      std::vector<std::string> values;
      for (int k = 0; k < 40; ++k) row += ' ' + values.emplace_back(common_value(rng));
      row += '\n';
      const Scan s = scan(isa, row, 40, row.size() - 1, shift);
      ASSERT_NE(s.end, nullptr) << shift;
      for (std::size_t k = 0; k < 40; ++k) {
        float want = 0;
        parse_float_reference(values[k].data(), values[k].data() + values[k].size(), want);
        ASSERT_EQ(std::bit_cast<std::uint32_t>(s.values[k]), std::bit_cast<std::uint32_t>(want)) << shift;
      }
    }
  }
}

// Values whose product by 10^-k lies within 16 units of a float rounding midpoint in the double's last 29 bits, where
// the scanners divide instead (the first two round to another float by the product alone).
TEST(TextRowKernels, ValuesNearAFloatRoundingMidpointAreDivided) {
  const std::vector<std::string> near = {"3156503.12500", "860564.15625",   "9038718.5",       "5417194.75",
                                         "4083481.625",   "2362412.375",    "2495082.8750",    "1818946.43750",
                                         "280947.734375", "2952286.125000", "8600372.5000000", "1587723.8125000"};
  for (Isa isa : available_isas()) {
    SCOPED_TRACE(isa_name(isa));
    std::string row;
    std::vector<std::string> values;
    for (int sign = 0; sign < 2; ++sign)
      for (const std::string& v : near) row += ' ' + values.emplace_back(sign == 0 ? v : '-' + v);
    row += '\n';
    const Scan s = scan(isa, row, values.size(), row.size() - 1);
    ASSERT_NE(s.end, nullptr);
    for (std::size_t k = 0; k < values.size(); ++k) {
      float want = 0;
      parse_float_reference(values[k].data(), values[k].data() + values[k].size(), want);
      EXPECT_EQ(std::bit_cast<std::uint32_t>(s.values[k]), std::bit_cast<std::uint32_t>(want)) << values[k];
    }
  }
}

// Rows of the common spelling with a few bytes changed, added or taken away: every variant takes the same rows, ends
// them at the same '\n' and reads the same values as the generic one (whose spelling checks are the tests above).
TEST(TextRowKernels, EveryVariantTakesAndRefusesTheSameRows) {
  Rng rng(19);
  const std::string alphabet = " \n.-0123456789\t+eE,x";
  std::size_t taken = 0, trials = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t dim = 1 + rng.below(trial % 8 == 0 ? 150 : 20);
    std::string row;
    for (std::size_t k = 0; k < dim; ++k) row += ' ' + common_value(rng);
    row += '\n';
    for (std::size_t c = rng.below(4); c > 0; --c) {
      const std::size_t at = 1 + rng.below(row.size() - 1);
      const char ch = alphabet[rng.below(alphabet.size())];
      switch (rng.below(3)) {
        case 0: row[at] = ch; break;
        case 1: row.insert(row.begin() + static_cast<std::ptrdiff_t>(at), ch); break;
        default: row.erase(at, 1);
      }
    }
    row += "w1 0.5 0.25\n";  // a next row
    const std::size_t first_nl = row.find('\n');
    const std::size_t tend = rng.below(2) == 0 ? first_nl : rng.below(row.size());
    const std::size_t want = dim + (rng.below(4) == 0 ? rng.below(3) : 1) - 1;  // sometimes one more or fewer
    if (want == 0) continue;
    ++trials;
    const Scan ref = scan(Isa::generic, row, want, tend);
    taken += ref.end != nullptr;
    for (Isa isa : available_isas()) {
      const Scan s = scan(isa, row, want, tend);
      ASSERT_EQ(s.end == nullptr, ref.end == nullptr) << isa_name(isa) << " on \"" << row << "\" tend " << tend;
      if (ref.end == nullptr) continue;
      ASSERT_EQ(s.offset, ref.offset) << isa_name(isa) << " on \"" << row << '"';
      for (std::size_t k = 0; k < want; ++k)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(s.values[k]), std::bit_cast<std::uint32_t>(ref.values[k]))
            << isa_name(isa) << " value " << k << " of \"" << row << '"';
    }
  }
  // Both kinds of row were seen often.
  EXPECT_GT(taken, trials / 10);
  EXPECT_LT(taken, trials * 9 / 10);
}

// One table written with spaces (the block scanner's rows) and with tabs (the general scanner's): the same table.
TEST(TextRowKernels, ATableReadEitherWayIsTheSame) {
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

}  // namespace test_text_row_kernels
}  // namespace lumen::io
