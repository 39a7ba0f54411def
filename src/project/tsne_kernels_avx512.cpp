// AVX-512 t-SNE loops: 16 lanes, the reference's order per lane.
#include <immintrin.h>

#include "lumen/project/tsne_kernels.hpp"

namespace lumen::project::kernels {
namespace {

inline double lanes_sum(__m512 v) {
  alignas(64) float t[16];
  _mm512_store_ps(t, v);
  double s = 0;
  for (float x : t) s += x;
  return s;
}

double repulse(const float* xs, const float* ys, std::size_t n, float px, float py, float* fx, float* fy) {
  const __m512 one = _mm512_set1_ps(1.0f), vx = _mm512_set1_ps(px), vy = _mm512_set1_ps(py);
  __m512 s = _mm512_setzero_ps(), gx = _mm512_setzero_ps(), gy = _mm512_setzero_ps();
  std::size_t j = 0;
  for (; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (n - j)) - 1u);
    const __m512 dx = _mm512_sub_ps(vx, _mm512_maskz_loadu_ps(m, xs + j));
    const __m512 dy = _mm512_sub_ps(vy, _mm512_maskz_loadu_ps(m, ys + j));
    const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    const __m512 q = _mm512_maskz_div_ps(m, one, _mm512_add_ps(one, d2));
    const __m512 q2 = _mm512_mul_ps(q, q);
    s = _mm512_add_ps(s, q);
    gx = _mm512_add_ps(gx, _mm512_mul_ps(q2, dx));
    gy = _mm512_add_ps(gy, _mm512_mul_ps(q2, dy));
  }
  *fx += static_cast<float>(lanes_sum(gx));
  *fy += static_cast<float>(lanes_sum(gy));
  return lanes_sum(s);
}

double repulse_mass(const float* xs, const float* ys, const float* ms, std::size_t n, float px, float py, float* fx,
                    float* fy) {
  const __m512 one = _mm512_set1_ps(1.0f), vx = _mm512_set1_ps(px), vy = _mm512_set1_ps(py);
  __m512 s = _mm512_setzero_ps(), gx = _mm512_setzero_ps(), gy = _mm512_setzero_ps();
  for (std::size_t j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (n - j)) - 1u);
    const __m512 dx = _mm512_sub_ps(vx, _mm512_maskz_loadu_ps(m, xs + j));
    const __m512 dy = _mm512_sub_ps(vy, _mm512_maskz_loadu_ps(m, ys + j));
    const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    const __m512 q = _mm512_maskz_div_ps(m, one, _mm512_add_ps(one, d2));
    const __m512 mq = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, ms + j), q);
    const __m512 mq2 = _mm512_mul_ps(mq, q);
    s = _mm512_add_ps(s, mq);
    gx = _mm512_add_ps(gx, _mm512_mul_ps(mq2, dx));
    gy = _mm512_add_ps(gy, _mm512_mul_ps(mq2, dy));
  }
  *fx += static_cast<float>(lanes_sum(gx));
  *fy += static_cast<float>(lanes_sum(gy));
  return lanes_sum(s);
}

double kernel_sum(const float* xs, const float* ys, std::size_t n, float px, float py) {
  const __m512 one = _mm512_set1_ps(1.0f), vx = _mm512_set1_ps(px), vy = _mm512_set1_ps(py);
  __m512 s = _mm512_setzero_ps();
  for (std::size_t j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (n - j)) - 1u);
    const __m512 dx = _mm512_sub_ps(vx, _mm512_maskz_loadu_ps(m, xs + j));
    const __m512 dy = _mm512_sub_ps(vy, _mm512_maskz_loadu_ps(m, ys + j));
    const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    s = _mm512_add_ps(s, _mm512_maskz_div_ps(m, one, _mm512_add_ps(one, d2)));
  }
  return lanes_sum(s);
}

}  // namespace

const TsneTable kTsneAvx512 = {repulse, repulse_mass, kernel_sum};

}  // namespace lumen::project::kernels
