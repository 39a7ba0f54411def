// The AVX-512 row-value scanner (text_row_kernel_table.hpp). One compare per character class gives a 64-byte
// block's masks; the block's spelling is checked on the masks at once; its values' separators and points are listed
// (a bit scan each); then the values are read eight at a time: their digits gathered from the text, made integers
// in 64-bit lanes, and divided by their power of ten as parse_float_common divides them (the correctly rounded
// double, then rounded to float), which keeps every value the generic variant's, bit for bit.
#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "io/text_row_kernel_table.hpp"

namespace lumen::io::text_row_kernels {

namespace {

// Values listed before they are read: a block lists at most 16 more (a value and its separator take 4 bytes or
// more), and 8 more entries keep the last group's masked loads inside the arrays.
constexpr std::size_t kQueue = 64;
constexpr std::size_t kQueueRoom = kQueue + 16 + 8;

// The value of the eight ASCII digits in each 64-bit lane (the first digit, the low byte, most significant): pairs,
// quads, then the eight.
__m512i eight_digits(__m512i v) {
  const __m512i d = _mm512_sub_epi8(v, _mm512_set1_epi8('0'));
  const __m512i pairs = _mm512_maddubs_epi16(d, _mm512_set1_epi16(0x010A));    // 10 * d0 + d1
  const __m512i quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x10064));  // 100 * p0 + p1
  return _mm512_add_epi64(_mm512_mul_epu32(quads, _mm512_set1_epi64(10000)), _mm512_srli_epi64(quads, 32));
}

// The first n (1..7) digits of each lane moved to its top, '0's filling the bottom: the value of those n digits.
__m512i leading_digits(__m512i v, __m512i n) {
  const __m512i bits = _mm512_slli_epi64(n, 3);
  const __m512i zeros = _mm512_set1_epi64(0x3030303030303030);
  return eight_digits(_mm512_or_si512(_mm512_sllv_epi64(v, _mm512_sub_epi64(_mm512_set1_epi64(64), bits)),
                                      _mm512_srlv_epi64(zeros, bits)));
}

// Reads the n listed values into out: value k lies between the separators at base + ends[k] and base + ends[k + 1],
// its point at base + points[k]. False where one has no digit, or more than 7, before or after that point.
bool read_values(const char* base, const std::int32_t* ends, const std::int32_t* points, std::size_t n, float* out) {
  const __m512i pow10 = _mm512_setr_epi64(1, 10, 100, 1000, 10000, 100000, 1000000, 10000000);
  const __m512d pow10d = _mm512_setr_pd(1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7);
  const __m512d inv_pow10 = _mm512_setr_pd(1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7);
  const __m256i one = _mm256_set1_epi32(1), seven = _mm256_set1_epi32(7);
  const __m512i zeros = _mm512_set1_epi64(0x3030303030303030);
  for (std::size_t k = 0; k < n; k += 8) {
    const auto lanes = static_cast<__mmask8>(n - k >= 8 ? 0xFF : (1u << (n - k)) - 1);
    const __m256i start = _mm256_add_epi32(_mm256_maskz_loadu_epi32(lanes, ends + k), one);
    const __m256i end = _mm256_maskz_loadu_epi32(lanes, ends + k + 1);
    const __m256i at = _mm256_maskz_loadu_epi32(lanes, points + k);
    __m512i whole = _mm512_mask_i32gather_epi64(zeros, lanes, start, base, 1);
    const __m512i frac = _mm512_mask_i32gather_epi64(zeros, lanes, _mm256_add_epi32(at, one), base, 1);
    // A sign can only be a value's first byte (the block's masks said so): drop it.
    const __mmask8 neg =
        _mm512_mask_cmpeq_epi64_mask(lanes, _mm512_and_si512(whole, _mm512_set1_epi64(0xFF)), _mm512_set1_epi64('-'));
    whole = _mm512_mask_srli_epi64(whole, neg, whole, 8);
    const __m256i n1 = _mm256_mask_sub_epi32(_mm256_sub_epi32(at, start), neg, _mm256_sub_epi32(at, start), one);
    const __m256i n2 = _mm256_sub_epi32(_mm256_sub_epi32(end, at), one);
    // 1..7 digits on each side (a point before the value's start or after its end gives a count out of range).
    const __mmask8 ok = _mm256_mask_cmplt_epu32_mask(lanes, _mm256_sub_epi32(n1, one), seven) &
                        _mm256_mask_cmplt_epu32_mask(lanes, _mm256_sub_epi32(n2, one), seven);
    if (ok != lanes) return false;
    const __m512i n1q = _mm512_cvtepu32_epi64(n1), n2q = _mm512_cvtepu32_epi64(n2);
    const __m512i m = _mm512_add_epi64(
        _mm512_mul_epu32(leading_digits(whole, n1q), _mm512_permutexvar_epi64(n2q, pow10)), leading_digits(frac, n2q));
    // m < 10^14 < 2^53: exact as a double. Clinger's step as divide_pow10 takes it: m * 10^-k, unless a float
    // rounding midpoint lies within 16 units of the double's last 29 bits; then the division.
    const __m512d md = _mm512_cvtepu64_pd(m);
    __m512d v = _mm512_mul_pd(md, _mm512_permutexvar_pd(n2q, inv_pow10));
    const __m512i below = _mm512_and_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(0x1FFFFFFF));
    const __mmask8 near = _mm512_mask_cmple_epu64_mask(
        lanes, _mm512_add_epi64(below, _mm512_set1_epi64(16 - 0x10000000)), _mm512_set1_epi64(32));
    if (near != 0) v = _mm512_mask_div_pd(v, near, md, _mm512_permutexvar_pd(n2q, pow10d));
    const __m256i f = _mm256_castps_si256(_mm512_cvtpd_ps(v));
    _mm256_mask_storeu_epi32(out + k, lanes,
                             _mm256_mask_or_epi32(f, neg, f, _mm256_set1_epi32(static_cast<int>(0x80000000u))));
  }
  return true;
}

BlockMasks block_masks(const char* p) {
  const __m512i v = _mm512_loadu_si512(p);
  BlockMasks m;
  m.nl = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
  m.sep = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' ')) | m.nl;
  m.point = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('.'));
  const std::uint64_t sign = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('-')) & (m.sep << 1);  // after a separator
  const std::uint64_t digit = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')), _mm512_set1_epi8(10));
  m.valid = digit | m.point | sign;
  return m;
}

#include "text_row_kernels_simd.hpp"  // scan_values, over block_masks and read_values

}  // namespace

const Table kAvx512 = {scan_values};

}  // namespace lumen::io::text_row_kernels
