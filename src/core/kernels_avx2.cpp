// AVX2 kernels; must equal kernels_generic.cpp bit for bit: lanes 0-7 and 8-15 of the 16-lane order
// live in two registers, mul then add, same reduction tree.
#include <immintrin.h>

#include "lumen/core/kernel_table.hpp"

namespace lumen::kernels {
namespace {

#include "core/lanes_avx2.hpp"

inline float f16_scalar(std::uint16_t h) { return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h))); }
inline float bf16_scalar(std::uint16_t b) {
  return _mm_cvtss_f32(_mm_castsi128_ps(_mm_cvtsi32_si128(static_cast<int>(static_cast<unsigned>(b) << 16))));
}
inline __m256 load8_f16(const std::uint16_t* p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline __m256 load8_bf16(const std::uint16_t* p) {
  return _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), 16));
}

// Main loop over whole 16-blocks in two registers; the tail goes through a zero-padded 16-lane buffer.
template <class Load8, class LoadScalar>
float dot16(const float* q, const std::uint16_t* r, std::size_t n, Load8 load8, LoadScalar scalar) {
  __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_loadu_ps(q + i), load8(r + i)));
    hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_loadu_ps(q + i + 8), load8(r + i + 8)));
  }
  if (i < n) {
    alignas(32) float qa[16] = {}, ra[16] = {};
    for (std::size_t l = 0; i + l < n; ++l) {
      qa[l] = q[i + l];
      ra[l] = scalar(r[i + l]);
    }
    lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_load_ps(qa), _mm256_load_ps(ra)));
    hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_load_ps(qa + 8), _mm256_load_ps(ra + 8)));
  }
  return reduce16(lo, hi);
}

float dot_f32(const float* a, const float* b, std::size_t n) {
  __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
    hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8)));
  }
  if (i < n) {
    alignas(32) float aa[16] = {}, ba[16] = {};
    for (std::size_t l = 0; i + l < n; ++l) {
      aa[l] = a[i + l];
      ba[l] = b[i + l];
    }
    lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_load_ps(aa), _mm256_load_ps(ba)));
    hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_load_ps(aa + 8), _mm256_load_ps(ba + 8)));
  }
  return reduce16(lo, hi);
}

float dot_f16(const float* q, const std::uint16_t* r, std::size_t n) { return dot16(q, r, n, load8_f16, f16_scalar); }
float dot_bf16(const float* q, const std::uint16_t* r, std::size_t n) {
  return dot16(q, r, n, load8_bf16, bf16_scalar);
}

void cvt_f16_f32(const std::uint16_t* s, float* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, load8_f16(s + i));
  for (; i < n; ++i) d[i] = f16_scalar(s[i]);
}

void cvt_bf16_f32(const std::uint16_t* s, float* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, load8_bf16(s + i));
  for (; i < n; ++i) d[i] = bf16_scalar(s[i]);
}

void cvt_f32_f16(const float* s, std::uint16_t* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  for (; i < n; ++i)
    d[i] = static_cast<std::uint16_t>(
        _mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(s[i]), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), 0));
}

void cvt_f32_bf16(const float* s, std::uint16_t* d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    unsigned x;
    __builtin_memcpy(&x, s + i, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
      d[i] = static_cast<std::uint16_t>((x >> 16) | 0x40u);
    } else {
      x += 0x7fffu + ((x >> 16) & 1u);
      d[i] = static_cast<std::uint16_t>(x >> 16);
    }
  }
}

void add_f32(float* y, const float* x, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_loadu_ps(y + i), _mm256_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = y[i] + x[i];
}

void axpy_f32(float* y, float a, const float* x, std::size_t n) {
  const __m256 va = _mm256_set1_ps(a);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_loadu_ps(y + i), _mm256_mul_ps(va, _mm256_loadu_ps(x + i))));
  for (; i < n; ++i) y[i] = y[i] + a * x[i];
}

}  // namespace

const Table kAvx2 = {dot_f32,     dot_f16,      dot_bf16, cvt_f16_f32, cvt_bf16_f32,
                     cvt_f32_f16, cvt_f32_bf16, add_f32,  axpy_f32};

}  // namespace lumen::kernels
