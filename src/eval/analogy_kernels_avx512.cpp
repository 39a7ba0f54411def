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
  const __m512 t = _mm512_set1_ps(threshold);
  for (; i + 16 <= n; i += 16) {
    const __m512 s =
        _mm512_sub_ps(_mm512_add_ps(_mm512_loadu_ps(sb + i), _mm512_loadu_ps(sc + i)), _mm512_loadu_ps(sa + i));
    const unsigned mask = static_cast<unsigned>(_mm512_cmp_ps_mask(s, t, _CMP_GT_OQ));
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
  const __m512 t = _mm512_set1_ps(threshold);
  const __m512 one = _mm512_set1_ps(1.0f), two = _mm512_set1_ps(2.0f), eps = _mm512_set1_ps(1e-6f);
  for (; i + 16 <= n; i += 16) {
    const __m512 pa = _mm512_div_ps(_mm512_add_ps(one, _mm512_loadu_ps(sa + i)), two);
    const __m512 pb = _mm512_div_ps(_mm512_add_ps(one, _mm512_loadu_ps(sb + i)), two);
    const __m512 pc = _mm512_div_ps(_mm512_add_ps(one, _mm512_loadu_ps(sc + i)), two);
    const __m512 s = _mm512_div_ps(_mm512_mul_ps(pb, pc), _mm512_add_ps(pa, eps));
    const unsigned mask = static_cast<unsigned>(_mm512_cmp_ps_mask(s, t, _CMP_GT_OQ));
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

const Table kAvx512 = {add_above, mul_above};

}  // namespace lumen::eval::kernels
