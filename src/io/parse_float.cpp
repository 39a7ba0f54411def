// Decimal to float32 at the speed of the bytes. The fast path is Clinger's: a mantissa m <= 2^53 and a power
// 10^k with |k| <= 22 are both exact doubles, so one multiplication or division is the correctly rounded
// result. Digits are taken eight at a time (SWAR: one 64-bit load, a check and three multiplications) where
// eight are there. Anything else (more than 19 digits, large exponents, nan, inf) takes the reference path.
#include "lumen/io/parse_float.hpp"

#include "io/parse_float_fast.hpp"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace lumen::io {

namespace {

using namespace detail;  // the tables and SWAR helpers (io/parse_float_fast.hpp)

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
  if (const char* q = detail::parse_float_common(p, e, out)) return q;
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
      m = m * kPow10Int[n] + digits_value(chunk, n);
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
    v = divide_pow10(v, -e10);  // m / 10^k, rounded once to double (then to float below, as gensim's float())
  }
  out = static_cast<float>(neg ? -v : v);
  return q;
}

}  // namespace lumen::io
