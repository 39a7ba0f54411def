// The generic row-value scanner (text_row_kernel_table.hpp): masks of a 64-byte block's separators, points, signs
// and digits (SSE2, which every x86-64 CPU has) give each value's start, point and end without a byte loop, so
// consecutive values do not wait on each other to be found; each value is then read with parse_float_common's
// arithmetic.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <emmintrin.h>

#include "io/parse_float_fast.hpp"
#include "io/text_row_kernel_table.hpp"

namespace lumen::io::text_row_kernels {

namespace {

using detail::digits_value;
using detail::divide_pow10;
using detail::kPow10Int;
using detail::load8;

struct RowBlock {
  // bit i: byte i of the block is a separator (' ' or '\n'); a '.'; a '-' after a separator; a byte a value may
  // hold (a digit, a '.', or such a '-').
  std::uint64_t sep = 0, point = 0, sign = 0, valid = 0;
};

RowBlock row_block(const char* p) {
  RowBlock m;
  std::uint64_t minus = 0, digit = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const auto bits = [i](__m128i x) {
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(x))) << (16 * i);
    };
    m.sep |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));
    m.point |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
    minus |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
    digit |= bits(_mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1))));
  }
  m.sign = minus & (m.sep << 1);
  m.valid = digit | m.point | m.sign;
  return m;
}

// The values of the common row, read one after the other with parse_float_common's arithmetic.
const char* scan_values(const char* p, const char* tend, std::size_t dim, float* out) {
  float* const out_end = out + dim;
  while (true) {
    RowBlock m = row_block(p);
    if (tend - p < 63) m.sep &= (std::uint64_t{2} << (tend - p)) - 1;  // nothing past tend counts
    std::uint64_t ends = m.sep & ~std::uint64_t{1};                    // bit 0 is the space before the next value
    if (ends == 0) return nullptr;  // a value of over 62 bytes, or the row passes tend
    unsigned pos = 0;
    for (; ends != 0; ends &= ends - 1) {
      const auto end = static_cast<unsigned>(std::countr_zero(ends));
      const unsigned start = pos + 1, len = end - start;
      const std::uint64_t span = ((std::uint64_t{1} << len) - 1) << start;
      const auto neg = static_cast<unsigned>((m.sign >> start) & 1);
      const std::uint64_t point = m.point & span;
      const auto at = static_cast<unsigned>(std::countr_zero(point));
      const unsigned n1 = at - start - neg, n2 = end - at - 1;
      // Value bytes only (a sign only first), one point, 1-7 digits on each side (no point: at = 64 and n2 wraps);
      // len == 0: a double separator.
      if (len == 0 || (m.valid & span) != span || (point & (point - 1)) != 0 || n1 - 1 >= 7 || n2 - 1 >= 7)
        return nullptr;
      const std::uint64_t mantissa =
          std::uint64_t{digits_value(load8(p + start + neg), static_cast<int>(n1))} * kPow10Int[n2] +
          digits_value(load8(p + at + 1), static_cast<int>(n2));
      const auto v = static_cast<float>(divide_pow10(static_cast<double>(mantissa), static_cast<int>(n2)));
      *out++ = std::bit_cast<float>(std::bit_cast<std::uint32_t>(v) | (neg << 31));
      const bool newline = p[end] == '\n';
      if (out == out_end) return newline ? p + end : nullptr;  // (trailing blanks or more values: the general scanner)
      if (newline) return nullptr;                             // too few values
      pos = end;
    }
    p += pos;
  }
}

}  // namespace

const Table kGeneric = {scan_values};

}  // namespace lumen::io::text_row_kernels
