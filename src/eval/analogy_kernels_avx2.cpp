#include <immintrin.h>

#include "analogy_kernel_table.hpp"

namespace lumen::eval::kernels {

namespace {

std::size_t emit(unsigned mask, std::size_t base, std::uint32_t* idx, std::size_t m) {
  while (mask) {
    idx[m++] = static_cast<std::uint32_t>(base + static_cast<std::size_t>(__builtin_ctz(mask)));
    mask &= mask - 1;
  }
  return m;
}

std::size_t add_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  std::size_t m = 0, i = 0;
  const __m256 t = _mm256_set1_ps(threshold);
  for (; i + 8 <= n; i += 8) {
    const __m256 s =
        _mm256_sub_ps(_mm256_add_ps(_mm256_loadu_ps(sb + i), _mm256_loadu_ps(sc + i)), _mm256_loadu_ps(sa + i));
    const unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(s, t, _CMP_GT_OQ)));
    if (mask) m = emit(mask, i, idx, m);
  }
  for (; i < n; ++i) {
    const float s = (sb[i] + sc[i]) - sa[i];
    if (s > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  }
  return m;
}

std::size_t mul_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  std::size_t m = 0, i = 0;
  const __m256 t = _mm256_set1_ps(threshold);
  const __m256 one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f), eps = _mm256_set1_ps(1e-6f);
  for (; i + 8 <= n; i += 8) {
    const __m256 pa = _mm256_div_ps(_mm256_add_ps(one, _mm256_loadu_ps(sa + i)), two);
    const __m256 pb = _mm256_div_ps(_mm256_add_ps(one, _mm256_loadu_ps(sb + i)), two);
    const __m256 pc = _mm256_div_ps(_mm256_add_ps(one, _mm256_loadu_ps(sc + i)), two);
    const __m256 s = _mm256_div_ps(_mm256_mul_ps(pb, pc), _mm256_add_ps(pa, eps));
    const unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(s, t, _CMP_GT_OQ)));
    if (mask) m = emit(mask, i, idx, m);
  }
  for (; i < n; ++i) {
    const float pa = (1.0f + sa[i]) / 2.0f, pb = (1.0f + sb[i]) / 2.0f, pc = (1.0f + sc[i]) / 2.0f;
    const float s = (pb * pc) / (pa + 1e-6f);
    if (s > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  }
  return m;
}

}  // namespace

const Table kAvx2 = {add_above, mul_above};

}  // namespace lumen::eval::kernels
