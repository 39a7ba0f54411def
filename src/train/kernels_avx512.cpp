// AVX-512 training kernels; equal to kernels_generic.cpp bit for bit (mul then add per element, no FMA).
// The tail is a masked step, so d = 100 costs seven vector steps and no scalar loop.
#include <immintrin.h>

#include "lumen/train/kernel_table.hpp"

namespace lumen::train::kernels {
namespace {

#include "core/lanes_avx512.hpp"

void pair_update(float* g, float* o, const float* h, float a, std::size_t n) {
  const __m512 va = _mm512_set1_ps(a);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 vo = _mm512_loadu_ps(o + i);
    _mm512_storeu_ps(g + i, _mm512_add_ps(_mm512_loadu_ps(g + i), _mm512_mul_ps(va, vo)));
    _mm512_storeu_ps(o + i, _mm512_add_ps(vo, _mm512_mul_ps(va, _mm512_loadu_ps(h + i))));
  }
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    const __m512 vo = _mm512_maskz_loadu_ps(k, o + i);
    _mm512_mask_storeu_ps(g + i, k, _mm512_add_ps(_mm512_maskz_loadu_ps(k, g + i), _mm512_mul_ps(va, vo)));
    _mm512_mask_storeu_ps(o + i, k, _mm512_add_ps(vo, _mm512_mul_ps(va, _mm512_maskz_loadu_ps(k, h + i))));
  }
}

void scale(float* y, float a, std::size_t n) {
  const __m512 va = _mm512_set1_ps(a);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, _mm512_mul_ps(va, _mm512_loadu_ps(y + i)));
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    _mm512_mask_storeu_ps(y + i, k, _mm512_mul_ps(va, _mm512_maskz_loadu_ps(k, y + i)));
  }
}

}  // namespace

const Table kAvx512 = {pair_update, scale};

}  // namespace lumen::train::kernels
