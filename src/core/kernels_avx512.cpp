// AVX-512 kernels; must equal kernels_generic.cpp bit for bit (16 lanes, mul then add, same tree).
#include <immintrin.h>

#include "lumen/core/kernel_table.hpp"

namespace lumen::kernels {
namespace {

#include "core/lanes_avx512.hpp"

inline __m512 load_bf16(const std::uint16_t* p, __mmask16 k) {
  __m256i h = _mm256_maskz_loadu_epi16(k, p);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

float dot_f32(const float* a, const float* b, std::size_t n) {
  __m512 acc = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(k, a + i), _mm512_maskz_loadu_ps(k, b + i)));
  }
  return reduce16(acc);
}

float dot_f16(const float* q, const std::uint16_t* r, std::size_t n) {
  __m512 acc = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 x = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(r + i)));
    acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(q + i), x));
  }
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    __m512 x = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(k, r + i));
    acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(k, q + i), x));
  }
  return reduce16(acc);
}

float dot_bf16(const float* q, const std::uint16_t* r, std::size_t n) {
  __m512 acc = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(q + i), load_bf16(r + i, 0xffff)));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(k, q + i), load_bf16(r + i, k)));
  }
  return reduce16(acc);
}

void cvt_f16_f32(const std::uint16_t* s, float* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(d + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i))));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    _mm512_mask_storeu_ps(d + i, k, _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(k, s + i)));
  }
}

void cvt_bf16_f32(const std::uint16_t* s, float* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, load_bf16(s + i, 0xffff));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    _mm512_mask_storeu_ps(d + i, k, load_bf16(s + i, k));
  }
}

void cvt_f32_f16(const float* s, std::uint16_t* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    _mm256_mask_storeu_epi16(
        d + i, k, _mm512_cvtps_ph(_mm512_maskz_loadu_ps(k, s + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
}

// Round to nearest even in integers; NaN becomes a quiet NaN (same rule as the scalar f32_to_bf16).
inline __m256i to_bf16(__m512 v) {
  const __m512i x = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
  const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(x, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), 16);
  const __m512i qnan = _mm512_or_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(0x40));
  const __mmask16 isnan =
      _mm512_cmpgt_epu32_mask(_mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff)), _mm512_set1_epi32(0x7f800000));
  return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(isnan, rounded, qnan));
}

void cvt_f32_bf16(const float* s, std::uint16_t* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), to_bf16(_mm512_loadu_ps(s + i)));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    _mm256_mask_storeu_epi16(d + i, k, to_bf16(_mm512_maskz_loadu_ps(k, s + i)));
  }
}

void add_f32(float* y, const float* x, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, _mm512_add_ps(_mm512_loadu_ps(y + i), _mm512_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = y[i] + x[i];
}

void axpy_f32(float* y, float a, const float* x, std::size_t n) {
  const __m512 va = _mm512_set1_ps(a);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(y + i, _mm512_add_ps(_mm512_loadu_ps(y + i), _mm512_mul_ps(va, _mm512_loadu_ps(x + i))));
  for (; i < n; ++i) y[i] = y[i] + a * x[i];
}

}  // namespace

const Table kAvx512 = {dot_f32,     dot_f16,      dot_bf16, cvt_f16_f32, cvt_bf16_f32,
                       cvt_f32_f16, cvt_f32_bf16, add_f32,  axpy_f32};

}  // namespace lumen::kernels
