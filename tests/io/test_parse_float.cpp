// The fast decimal parser against its plain reference, bit for bit and end for end, over the spellings tables
// use (gensim's repr, "%.6f", exponents, long mantissas, specials) and random bytes around them.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/io/parse_float.hpp"

namespace lumen::io {
namespace test_parse_float {

// Both parsers on `s` agree: same end (or both nullptr) and the same float bits (any NaN for NaN).
void expect_same_once(const std::string& s) {
  const char* b = s.data();
  const char* e = b + s.size();
  float fast = -1.0f, ref = -2.0f;
  const char* pf = parse_float(b, e, fast);
  const char* pr = parse_float_reference(b, e, ref);
  ASSERT_EQ(pf == nullptr, pr == nullptr) << "'" << s << "'";
  if (pf == nullptr) return;
  EXPECT_EQ(pf - b, pr - b) << "'" << s << "'";
  if (std::isnan(ref)) EXPECT_TRUE(std::isnan(fast)) << "'" << s << "'";
  else EXPECT_EQ(std::bit_cast<std::uint32_t>(fast), std::bit_cast<std::uint32_t>(ref)) << "'" << s << "'";
}

// Alone, and followed by more of a row: the two-load path for "digits.digits" needs 17 bytes before the end, as
// every value but a row's last has.
void expect_same(const std::string& s) {
  expect_same_once(s);
  expect_same_once(s + " 0.123456 -0.654321 1.5");
  expect_same_once(s + "\t");
}

TEST(ParseFloat, AgreesWithTheReferenceOnEverySpelling) {
  for (const char* s : {"0",
                        "-0",
                        "+0",
                        "0.0",
                        "-0.0",
                        "1",
                        "7.",
                        ".5",
                        "-.5",
                        "+1.25",
                        "1e5",
                        "1E5",
                        "1e+5",
                        "1e-5",
                        "1e",
                        "1e+",
                        "1e-",
                        "e5",
                        ".",
                        "-",
                        "+",
                        "",
                        "+-1",
                        "--1",
                        "nan",
                        "-nan",
                        "NaN",
                        "inf",
                        "-inf",
                        "Infinity",
                        "infinity",
                        "1.5.3",
                        "12345678901234567890123",
                        "0.000000000000000000000000000000000000000000001",
                        "1e-46",
                        "1e39",
                        "3.4028235677973366e38",
                        "9007199254740993",
                        "9007199254740992.5",
                        "0.1234567890123456789",
                        "123456789.123456789",
                        "00000000000000000000000000001",
                        "0.00000000000000000000000000001",
                        "1e22",
                        "1e23",
                        "1e-22",
                        "1e-23",
                        "4.9e-324",
                        "1e99999999999",
                        "1e-99999999999",
                        "0x1p3",
                        "12abc",
                        "1 2",
                        "0.12345678 ",
                        "0.123456789012",
                        "-0.36522385",
                        "0.00000001",
                        "99999999.99999999",
                        "18446744073709551616",      // 2^64: wraps a 64-bit mantissa to exactly 0
                        "0.18446744073709551616",    // the same, after the point
                        "000018446744073709551617",  // leading zeros are not significant digits
                        "36893488147419103232"})
    expect_same(s);
}

TEST(ParseFloat, AgreesWithTheReferenceOnRandomValuesAndFormats) {
  Rng rng(11);
  for (int i = 0; i < 20000; ++i) {
    const double mag = std::pow(10.0, rng.uniform() * 60.0 - 30.0);
    const double v = (rng.uniform() - 0.5) * mag;
    const auto f = static_cast<float>(v);
    for (const std::string& s :
         {fmt::format("{:.6f}", v), fmt::format("{:.9g}", v), fmt::format("{:.17g}", v), fmt::format("{:e}", v),
          fmt::format("{}", f), fmt::format("{:.8f}", f), fmt::format("{:.20f}", v), fmt::format("{:.3e}", v)})
      expect_same(s);
  }
}

TEST(ParseFloat, AgreesWithTheReferenceNearFloatRoundingMidpoints) {
  // Decimals within a few double ulps of the midpoint between two floats: where the division-free path must
  // notice it cannot decide and divide (the double's bits beyond a float's mantissa near 0x10000000).
  Rng rng(13);
  for (int i = 0; i < 20000; ++i) {
    const auto f = static_cast<float>((rng.uniform() - 0.5) * std::pow(10.0, rng.uniform() * 14.0 - 7.0));
    const double mid = (static_cast<double>(f) + static_cast<double>(std::nextafter(f, 2.0f * f + 1.0f))) / 2;
    for (const std::string& s : {fmt::format("{:.15g}", mid), fmt::format("{:.16g}", mid), fmt::format("{:.14f}", mid)})
      expect_same(s);
  }
}

TEST(ParseFloat, TwoLoadShapeAgreesNearMidpointsAndAtItsLimits) {
  // "d.d" with 1-7 digits each side, 14 significant digits at most: values of [1e3, 1e7) printed with 7 decimals
  // near (and above 2^17 exactly at: floats there have midpoints with at most 7 decimals) the midpoint of two
  // floats, and nudged one unit of the last digit either way, where ties-to-even and double rounding decide.
  Rng rng(17);
  for (int i = 0; i < 20000; ++i) {
    const auto f = static_cast<float>(std::pow(10.0, 3.0 + rng.uniform() * 4.0));
    const double mid = (static_cast<double>(f) + static_cast<double>(std::nextafter(f, 2.0f * f))) / 2;
    for (const double v : {mid, mid + 1e-7, mid - 1e-7, -mid})
      for (const std::string& s : {fmt::format("{:.7f}", v), fmt::format("{:.3f}", v), fmt::format("{:.1f}", v)})
        expect_same(s);
  }
  for (const char* s : {"1234567.1234567", "12345678.1234567", "1234567.12345678", "1.1", "-0.5", "+0.5", "0.5e3",
                        "0.5E-3", "0.5x", "0.5.", "-.5", "1.", "9999999.9999999", "0000000.0000001", "-0.000000"})
    expect_same(s);
}

TEST(ParseFloat, AgreesWithTheReferenceOnRandomDigitStrings) {
  // Digits, a point, signs and exponents in random order: the SWAR eight-digit path meets every cut.
  Rng rng(12);
  const std::string alphabet = "0123456789000000.-+eE 9";
  for (int i = 0; i < 50000; ++i) {
    std::string s;
    const auto n = static_cast<std::size_t>(rng.uniform() * 30);
    for (std::size_t k = 0; k < n; ++k)
      s.push_back(
          alphabet[static_cast<std::size_t>(rng.uniform() * static_cast<double>(alphabet.size())) % alphabet.size()]);
    expect_same(s);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace test_parse_float
}  // namespace lumen::io
