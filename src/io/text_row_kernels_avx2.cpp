// The AVX2 row-value scanner (text_row_kernel_table.hpp): the AVX-512 variant's plan in 32-byte registers. Two
// compares per character class give a 64-byte block's masks; the block's spelling is checked on the masks at once;
// its values' separators and points are listed (a bit scan each); then the values are read four at a time, their
// digits gathered from the text, made integers in 64-bit lanes and divided by their power of ten as
// parse_float_common divides them, which keeps every value the generic variant's, bit for bit.
#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "io/text_row_kernel_table.hpp"

namespace lumen::io::text_row_kernels {

namespace {

// Values listed before they are read: a block lists at most 16 more (a value and its separator take 4 bytes or
// more), and 4 more entries keep the last group's loads inside the arrays.
constexpr std::size_t kQueue = 64;
constexpr std::size_t kQueueRoom = kQueue + 16 + 4;

alignas(32) constexpr double kPow10[8] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7};

// The value of the eight ASCII digits in each 64-bit lane (the first digit, the low byte, most significant): pairs,
// quads, then the eight.
__m256i eight_digits(__m256i v) {
  const __m256i d = _mm256_sub_epi8(v, _mm256_set1_epi8('0'));
  const __m256i pairs = _mm256_maddubs_epi16(d, _mm256_set1_epi16(0x010A));    // 10 * d0 + d1
  const __m256i quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x10064));  // 100 * p0 + p1
  return _mm256_add_epi64(_mm256_mul_epu32(quads, _mm256_set1_epi64x(10000)), _mm256_srli_epi64(quads, 32));
}

// The first n (1..7) digits of each lane moved to its top, '0's filling the bottom: the value of those n digits.
__m256i leading_digits(__m256i v, __m256i n) {
  const __m256i bits = _mm256_slli_epi64(n, 3);
  const __m256i zeros = _mm256_set1_epi64x(0x3030303030303030);
  return eight_digits(_mm256_or_si256(_mm256_sllv_epi64(v, _mm256_sub_epi64(_mm256_set1_epi64x(64), bits)),
                                      _mm256_srlv_epi64(zeros, bits)));
}

// The eight bytes at base + at[i] in lane i: four loads (AVX2's gather is slower on the CPUs measured).
__m256i gather8(const char* base, __m128i at) {
  alignas(16) std::int32_t a[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(a), at);
  long long v[4];
  for (int i = 0; i < 4; ++i) std::memcpy(&v[i], base + a[i], 8);
  return _mm256_setr_epi64x(v[0], v[1], v[2], v[3]);
}

// 10^-n for each 64-bit lane's n (0..7): a dword permute of each half of the table, then a blend (a gather per
// group costs more).
__m256d inv_pow10(__m256i n) {
  const __m256 lo = _mm256_castpd_ps(_mm256_setr_pd(1e0, 1e-1, 1e-2, 1e-3));
  const __m256 hi = _mm256_castpd_ps(_mm256_setr_pd(1e-4, 1e-5, 1e-6, 1e-7));
  const __m256i twice = _mm256_slli_epi64(n, 1);  // dwords 2n and 2n + 1, modulo 8
  const __m256i idx = _mm256_or_si256(twice, _mm256_slli_epi64(_mm256_add_epi64(twice, _mm256_set1_epi64x(1)), 32));
  return _mm256_blendv_pd(_mm256_castps_pd(_mm256_permutevar8x32_ps(lo, idx)),
                          _mm256_castps_pd(_mm256_permutevar8x32_ps(hi, idx)),
                          _mm256_castsi256_pd(_mm256_cmpgt_epi64(n, _mm256_set1_epi64x(3))));
}

// Reads the n listed values into out: value k lies between the separators at base + ends[k] and base + ends[k + 1],
// its point at base + points[k]. False where one has no digit, or more than 7, before or after that point.
bool read_values(const char* base, const std::int32_t* ends, const std::int32_t* points, std::size_t n, float* out) {
  const __m256i pow10 = _mm256_setr_epi32(1, 10, 100, 1000, 10000, 100000, 1000000, 10000000);
  const __m128i one = _mm_set1_epi32(1), zero = _mm_setzero_si128(), eight = _mm_set1_epi32(8);
  const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  for (std::size_t k = 0; k < n; k += 4) {
    // Lanes past n: as a value of one digit on each side (bytes 1-3; read, then not stored).
    __m128i start = one, at = _mm_set1_epi32(2), end = _mm_set1_epi32(4);
    const std::size_t r = n - k < 4 ? n - k : 4;
    const __m128i active = _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(r)), _mm_setr_epi32(0, 1, 2, 3));
    start = _mm_blendv_epi8(start, _mm_add_epi32(_mm_maskload_epi32(ends + k, active), one), active);
    end = _mm_blendv_epi8(end, _mm_maskload_epi32(ends + k + 1, active), active);
    at = _mm_blendv_epi8(at, _mm_maskload_epi32(points + k, active), active);
    __m256i whole = gather8(base, start);
    const __m256i frac = gather8(base, _mm_add_epi32(at, one));
    // A sign can only be a value's first byte (the block's masks said so): drop it.
    const __m256i neg = _mm256_cmpeq_epi64(_mm256_and_si256(whole, _mm256_set1_epi64x(0xFF)), _mm256_set1_epi64x('-'));
    whole = _mm256_blendv_epi8(whole, _mm256_srli_epi64(whole, 8), neg);
    const __m128i neg32 =  // -1 where negative (not in lanes past n: their bytes are the row's first ones)
        _mm_and_si128(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(neg, even)), active);
    const __m128i n1 = _mm_add_epi32(_mm_sub_epi32(at, start), neg32);
    const __m128i n2 = _mm_sub_epi32(_mm_sub_epi32(end, at), one);
    // 1..7 digits on each side (a point before the value's start or after its end gives a count out of range).
    const __m128i ok = _mm_and_si128(_mm_and_si128(_mm_cmpgt_epi32(n1, zero), _mm_cmpgt_epi32(eight, n1)),
                                     _mm_and_si128(_mm_cmpgt_epi32(n2, zero), _mm_cmpgt_epi32(eight, n2)));
    if (_mm_movemask_ps(_mm_castsi128_ps(ok)) != 0xF) return false;
    const __m256i n1q = _mm256_cvtepu32_epi64(n1), n2q = _mm256_cvtepu32_epi64(n2);
    const __m256i m =
        _mm256_add_epi64(_mm256_mul_epu32(leading_digits(whole, n1q), _mm256_permutevar8x32_epi32(pow10, n2q)),
                         leading_digits(frac, n2q));
    // m < 10^14 < 2^52: exact as a double (its bits below a 2^52 exponent). Clinger's step as divide_pow10 takes it:
    // m * 10^-k, unless a float rounding midpoint lies within 16 units of the double's last 29 bits; then divide.
    const __m256d two52 = _mm256_set1_pd(0x1p52);
    const __m256d md = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(m, _mm256_castpd_si256(two52))), two52);
    __m256d v = _mm256_mul_pd(md, inv_pow10(n2q));
    const __m256i below = _mm256_and_si256(_mm256_castpd_si256(v), _mm256_set1_epi64x(0x1FFFFFFF));
    const __m256i near = _mm256_and_si256(_mm256_cmpgt_epi64(below, _mm256_set1_epi64x(0x10000000 - 17)),
                                          _mm256_cmpgt_epi64(_mm256_set1_epi64x(0x10000000 + 17), below));
    if (_mm256_movemask_pd(_mm256_castsi256_pd(near)) != 0)
      v = _mm256_blendv_pd(v, _mm256_div_pd(md, _mm256_i64gather_pd(kPow10, n2q, 8)), _mm256_castsi256_pd(near));
    const __m128 f = _mm_or_ps(_mm256_cvtpd_ps(v), _mm_castsi128_ps(_mm_and_si128(neg32, _mm_set1_epi32(INT32_MIN))));
    if (r == 4) _mm_storeu_ps(out + k, f);
    else _mm_maskstore_ps(out + k, active, f);
  }
  return true;
}

// Bit i: byte i of the 64 (lo, then hi) makes cmp true.
template <class Cmp>
std::uint64_t block_mask(__m256i lo, __m256i hi, Cmp cmp) {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(cmp(lo))) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(cmp(hi)))) << 32;
}

BlockMasks block_masks(const char* p) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const auto equal = [](char c) { return [c](__m256i x) { return _mm256_cmpeq_epi8(x, _mm256_set1_epi8(c)); }; };
  BlockMasks m;
  m.nl = block_mask(lo, hi, equal('\n'));
  m.sep = block_mask(lo, hi, equal(' ')) | m.nl;
  m.point = block_mask(lo, hi, equal('.'));
  const std::uint64_t sign = block_mask(lo, hi, equal('-')) & (m.sep << 1);  // a '-' after a separator
  const std::uint64_t digit = block_mask(lo, hi, [](__m256i x) {
    const __m256i d = _mm256_sub_epi8(x, _mm256_set1_epi8('0'));
    return _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
  });
  m.valid = digit | m.point | sign;
  return m;
}

#include "text_row_kernels_simd.hpp"  // scan_values, over block_masks and read_values

}  // namespace

const Table kAvx2 = {scan_values};

}  // namespace lumen::io::text_row_kernels
