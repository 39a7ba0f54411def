// Decimal to float32 at the speed of the bytes. The fast path is Clinger's: a mantissa m <= 2^53 and a power
// 10^k with |k| <= 22 are both exact doubles, so one multiplication or division is the correctly rounded
// result. Digits are taken eight at a time (SWAR: one 64-bit load, a check and three multiplications) where
// eight are there. Anything else (more than 19 digits, large exponents, nan, inf) takes the reference path.
#include "lumen/io/parse_float.hpp"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace lumen::io {

namespace {

// Exact powers of ten as doubles (10^22 is the largest exactly representable).
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
// Their reciprocals, correctly rounded (for the division-free path below).
constexpr double kInvPow10[] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8,  1e-9,  1e-10, 1e-11,
                                1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22};
constexpr std::uint64_t kPow10Int[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;

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

// Appends one digit to m. Significant digits are counted before the multiplication: counting m != 0 after it
// missed a twentieth digit that wrapped m to exactly 0 (2^64 = 18446744073709551616). False past 19 digits.
inline bool take_digit(std::uint64_t& m, int& digits, char c) {
  const auto d = static_cast<unsigned>(c - '0');
  if ((m != 0 || d != 0) && ++digits > 19) return false;
  m = m * 10 + d;
  return true;
}

}  // namespace

const char* parse_float_reference(const char* p, const char* e, float& out) {
  const char* s = p;
  if (s < e && *s == '+') ++s;  // Python's float() takes a leading '+'; from_chars does not
  if (s < e && (*s == '+' || (*s == '-' && s != p))) return nullptr;
  double v = 0;
  auto [ptr, ec] = std::from_chars(s, e, v, std::chars_format::general);
  if (ec == std::errc::invalid_argument) return nullptr;
  if (ec == std::errc::result_out_of_range) {  // overflow to +-inf, underflow to 0, as float() does
    const std::string tok(s, static_cast<std::size_t>(ptr - s));
    v = std::strtod(tok.c_str(), nullptr);
  }
  out = static_cast<float>(v);
  return ptr;
}

const char* parse_float(const char* p, const char* e, float& out) {
  const char* q = p;
  bool neg = false;
  if (q < e && (*q == '-' || *q == '+')) neg = *q++ == '-';
  std::uint64_t m = 0;
  int digits = 0;  // digits in m from its first non-zero one (m stays exact below 20)
  int e10 = 0;
  bool any = false;
  for (; q < e && is_digit(*q); ++q) {
    any = true;
    if (!take_digit(m, digits, *q)) return parse_float_reference(p, e, out);
  }
  if (q < e && *q == '.') {
    ++q;
    const char* frac = q;
    // Up to eight digits per step: the run's n digits are moved to the top of the word and '0's fill the bottom,
    // which leaves the value of the run. (Only where eight bytes remain before e: a row's last value goes on.)
    while (e - q >= 8 && digits <= 11) {
      std::uint64_t chunk = load8(q);
      const int n = leading_digits(chunk);
      if (n == 0) break;
      if (n < 8) chunk = (chunk << (8 * (8 - n))) | (0x3030303030303030ull >> (8 * n));
      m = m * kPow10Int[n] + eight_digits_value(chunk);
      digits += m != 0 ? n : 0;  // counts leading zeros of the run too: errs towards the reference path
      q += n;
      if (n < 8) break;
    }
    for (; q < e && is_digit(*q); ++q)
      if (!take_digit(m, digits, *q)) return parse_float_reference(p, e, out);
    any = any || q != frac;
    e10 = -static_cast<int>(q - frac);
  }
  if (!any) return parse_float_reference(p, e, out);  // nan, inf, or no number at all
  if (q < e && (*q == 'e' || *q == 'E')) {
    const char* x = q + 1;
    bool eneg = false;
    if (x < e && (*x == '-' || *x == '+')) eneg = *x++ == '-';
    const char* xd = x;
    int ev = 0;
    for (; x < e && is_digit(*x) && ev < 100000; ++x) ev = ev * 10 + (*x - '0');
    if (x == xd || (x < e && is_digit(*x))) return parse_float_reference(p, e, out);  // "1e", or a huge exponent
    e10 += eneg ? -ev : ev;
    q = x;
  }
  if (m > kMaxExact || e10 < -22 || e10 > 22) return parse_float_reference(p, e, out);
  double v = static_cast<double>(m);
  if (e10 >= 0) {
    v *= kPow10[e10];  // exact operands: correctly rounded
  } else {
    // m / 10^k is the correctly rounded double d; its float is what is wanted. m * (1/10^k) is within 3 ulps of
    // d, so the two round to the same float unless a float rounding midpoint lies that close (the 29 bits a
    // double has beyond a float's mantissa then read near 0x10000000): only then divide. The result lies in
    // float's normal range (m < 2^53, k <= 22), where those 29 bits are exactly the bits rounded away.
    const double approx = v * kInvPow10[-e10];
    const std::uint64_t below = std::bit_cast<std::uint64_t>(approx) & 0x1FFFFFFFull;
    v = below - 0x10000000ull + 16 > 32 ? approx : v / kPow10[-e10];
  }
  out = static_cast<float>(neg ? -v : v);
  return q;
}

}  // namespace lumen::io
