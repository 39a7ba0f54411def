// AVX2 training kernels; equal to kernels_generic.cpp bit for bit (mul then add per element, no FMA).
#include <immintrin.h>

#include "lumen/train/kernel_table.hpp"

namespace lumen::train::kernels {
namespace {

void pair_update(float* g, float* o, const float* h, float a, std::size_t n) {
  const __m256 va = _mm256_set1_ps(a);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 vo = _mm256_loadu_ps(o + i);
    _mm256_storeu_ps(g + i, _mm256_add_ps(_mm256_loadu_ps(g + i), _mm256_mul_ps(va, vo)));
    _mm256_storeu_ps(o + i, _mm256_add_ps(vo, _mm256_mul_ps(va, _mm256_loadu_ps(h + i))));
  }
  for (; i < n; ++i) {
    const float oi = o[i];
    g[i] = g[i] + a * oi;
    o[i] = oi + a * h[i];
  }
}

void scale(float* y, float a, std::size_t n) {
  const __m256 va = _mm256_set1_ps(a);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(va, _mm256_loadu_ps(y + i)));
  for (; i < n; ++i) y[i] = a * y[i];
}

}  // namespace

const Table kAvx2 = {pair_update, scale};

}  // namespace lumen::train::kernels
