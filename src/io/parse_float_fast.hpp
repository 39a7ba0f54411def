#pragma once
// The common path of parse_float (parse_float.cpp), inline so that the text reader's row loop pays no call for
// it: a value spelled as tables write them ("%.6f", "%g" without an exponent) is read with two eight-byte loads.
// parse_float_inline falls back to parse_float for anything else. Bit for bit the same results as parse_float
// (which starts with the same function), tested against parse_float_reference in tests/io/test_parse_float.cpp.
#include <bit>
#include <cstdint>
#include <cstring>

#include "lumen/io/parse_float.hpp"

namespace lumen::io::detail {

// Exact powers of ten as doubles (10^22 is the largest exactly representable).
inline constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
// Their reciprocals, correctly rounded (for the division-free path below).
inline constexpr double kInvPow10[] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,
                                       1e-8,  1e-9,  1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15,
                                       1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22};
inline constexpr std::uint64_t kPow10Int[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
inline constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

inline std::uint64_t load8(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian: p[0] in the low byte
  return v;
}

// How many of the eight bytes, from the first, are '0'..'9'. A byte is a digit when its high nibble is 3 and
// adding 6 leaves it 3; the lowest byte failing either test ends the run. (A carry out of a byte >= 0xFA can
// spoil the test of the byte after it, but that byte comes after a non-digit and is not counted anyway.)
inline int leading_digits(std::uint64_t v) {
  const std::uint64_t high = (v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
  const std::uint64_t low = ((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
  const std::uint64_t bad = high | low;
  return bad == 0 ? 8 : std::countr_zero(bad) / 8;
}

// The value of eight ASCII digits (first digit most significant): pairs, then quads, then the eight.
inline std::uint32_t eight_digits_value(std::uint64_t v) {
  v -= 0x3030303030303030ull;
  v = v * 10 + (v >> 8);  // byte 2i holds the pair (digit 2i, digit 2i+1)
  const std::uint64_t pairs02 = v & 0x000000FF000000FFull, pairs13 = (v >> 16) & 0x000000FF000000FFull;
  v = (pairs02 * (100 + (1000000ull << 32)) + pairs13 * (1 + (10000ull << 32))) >> 32;
  return static_cast<std::uint32_t>(v);
}

// Clinger's step for m / 10^k (m < 2^53, 1 <= k <= 22): the float of the correctly rounded double quotient.
// m * (1/10^k) is within 3 ulps of that quotient, so the two round to the same float unless a float rounding
// midpoint lies that close (the 29 bits a double has beyond a float's mantissa then read near 0x10000000): only
// then divide. The result lies in float's normal range (m < 2^53, k <= 22), where those 29 bits are exactly the
// bits rounded away.
inline double divide_pow10(double v, int k) {
  const double approx = v * kInvPow10[k];
  const std::uint64_t below = std::bit_cast<std::uint64_t>(approx) & 0x1FFFFFFFull;
  return below - 0x10000000ull + 16 > 32 ? approx : v / kPow10[k];
}

// The value of the first n (1..8) ASCII digits of v: moved to the top of the word, '0's filling the bottom.
inline std::uint32_t digits_value(std::uint64_t v, int n) {
  if (n < 8) v = (v << (8 * (8 - n))) | (0x3030303030303030ull >> (8 * n));
  return eight_digits_value(v);
}

// The value at p if it has the common shape with 17 bytes before e: the end of the number (out set), else nullptr
// (out untouched).
inline const char* parse_float_common(const char* p, const char* e, float& out) {
  // The shape tables are written in ("%.6f", "%g" without an exponent): 1-7 integer digits, '.', 1-7 digits,
  // then not an exponent. Two eight-byte loads read it (where 17 bytes, sign included, remain before e); at most
  // 14 digits, so m < 2^53 and 10^k exact. Anything else takes the general path below.
  if (e - p >= 17) {
    // The sign without a branch (half the values of a table are negative: a branch on it mispredicts).
    const bool neg = *p == '-';
    const char* q = p + (neg | (*p == '+'));
    const std::uint64_t a = load8(q);
    const int n1 = leading_digits(a);
    if (n1 >= 1 && n1 <= 7 && q[n1] == '.') {
      const char* f = q + n1 + 1;  // f + 8 <= q + 16 <= e
      const std::uint64_t b = load8(f);
      const int n2 = leading_digits(b);
      if (n2 >= 1 && n2 <= 7 && (f[n2] | 0x20) != 'e') {
        const std::uint64_t m = std::uint64_t{digits_value(a, n1)} * kPow10Int[n2] + digits_value(b, n2);
        const auto v = static_cast<float>(divide_pow10(static_cast<double>(m), n2));
        out = std::bit_cast<float>(std::bit_cast<std::uint32_t>(v) | (static_cast<std::uint32_t>(neg) << 31));
        return f + n2;
      }
    }
  }
  return nullptr;
}

inline const char* parse_float_inline(const char* p, const char* e, float& out) {
  if (const char* q = parse_float_common(p, e, out)) return q;
  return parse_float(p, e, out);
}

}  // namespace lumen::io::detail
