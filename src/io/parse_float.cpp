// Decimal to float32 at the speed of the bytes. The fast path is Clinger's: a mantissa m <= 2^53 and a power
// 10^k with |k| <= 22 are both exact doubles, so one multiplication or division is the correctly rounded
// result. Digits are taken eight at a time (SWAR: one 64-bit load, a check and three multiplications) where
// eight are there. Anything else (more than 19 digits, large exponents, nan, inf) takes the reference path.
#include "lumen/io/parse_float.hpp"

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
constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

inline std::uint64_t load8(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian: p[0] in the low byte
  return v;
}

// True if all eight bytes are '0'..'9': each byte's high nibble is 3, and adding 6 does not carry out of it.
inline bool eight_digits(std::uint64_t v) {
  return ((v & 0xF0F0F0F0F0F0F0F0ull) | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ==
         0x3333333333333333ull;
}

// The value of eight ASCII digits (first digit most significant): pairs, then quads, then the eight.
inline std::uint32_t eight_digits_value(std::uint64_t v) {
  v -= 0x3030303030303030ull;
  v = v * 10 + (v >> 8);  // byte 2i holds the pair (digit 2i, digit 2i+1)
  const std::uint64_t pairs02 = v & 0x000000FF000000FFull, pairs13 = (v >> 16) & 0x000000FF000000FFull;
  v = (pairs02 * (100 + (1000000ull << 32)) + pairs13 * (1 + (10000ull << 32))) >> 32;
  return static_cast<std::uint32_t>(v);
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
    m = m * 10 + static_cast<unsigned>(*q - '0');
    digits += m != 0;
    if (digits > 19) return parse_float_reference(p, e, out);
  }
  if (q < e && *q == '.') {
    ++q;
    const char* frac = q;
    while (e - q >= 8 && digits <= 11) {
      const std::uint64_t chunk = load8(q);
      if (!eight_digits(chunk)) break;
      m = m * 100000000 + eight_digits_value(chunk);
      digits += m != 0 ? 8 : 0;  // counts leading zeros of the chunk too: errs towards the reference path
      q += 8;
    }
    for (; q < e && is_digit(*q); ++q) {
      m = m * 10 + static_cast<unsigned>(*q - '0');
      digits += m != 0;
      if (digits > 19) return parse_float_reference(p, e, out);
    }
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
  v = e10 < 0 ? v / kPow10[-e10] : v * kPow10[e10];
  out = static_cast<float>(neg ? -v : v);
  return q;
}

}  // namespace lumen::io
