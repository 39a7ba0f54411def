// AVX2 t-SNE loops: two 8-wide registers make the reference's 16 lanes.
#include <immintrin.h>

#include "lumen/project/tsne_kernels.hpp"

namespace lumen::project::kernels {
namespace {

inline double lanes_sum(__m256 lo, __m256 hi) {
  alignas(32) float t[16];
  _mm256_store_ps(t, lo);
  _mm256_store_ps(t + 8, hi);
  double s = 0;
  for (float x : t) s += x;
  return s;
}

// Lanes [j, j+8) with a tail mask: out-of-range lanes load zeros and are masked out of q.
inline __m256i tail_mask8(std::size_t left) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const int m = left >= 8 ? 8 : static_cast<int>(left);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(m), idx);
}

struct Acc {
  __m256 s, gx, gy;
};

// ms: masses (nullptr: all 1).
inline void step(Acc& a, const float* xs, const float* ys, const float* ms, std::size_t j, std::size_t n, __m256 vx,
                 __m256 vy, bool force) {
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 x, y, w, valid;
  if (j + 8 <= n) {
    x = _mm256_loadu_ps(xs + j);
    y = _mm256_loadu_ps(ys + j);
    w = ms ? _mm256_loadu_ps(ms + j) : one;
    valid = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
  } else if (j < n) {
    const __m256i m = tail_mask8(n - j);
    x = _mm256_maskload_ps(xs + j, m);
    y = _mm256_maskload_ps(ys + j, m);
    w = ms ? _mm256_maskload_ps(ms + j, m) : one;
    valid = _mm256_castsi256_ps(m);
  } else {
    return;
  }
  const __m256 dx = _mm256_sub_ps(vx, x), dy = _mm256_sub_ps(vy, y);
  const __m256 d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
  const __m256 q = _mm256_and_ps(valid, _mm256_div_ps(one, _mm256_add_ps(one, d2)));
  if (ms) {
    const __m256 mq = _mm256_mul_ps(w, q);
    a.s = _mm256_add_ps(a.s, mq);
    const __m256 mq2 = _mm256_mul_ps(mq, q);
    a.gx = _mm256_add_ps(a.gx, _mm256_mul_ps(mq2, dx));
    a.gy = _mm256_add_ps(a.gy, _mm256_mul_ps(mq2, dy));
    return;
  }
  a.s = _mm256_add_ps(a.s, q);
  if (force) {
    const __m256 q2 = _mm256_mul_ps(q, q);
    a.gx = _mm256_add_ps(a.gx, _mm256_mul_ps(q2, dx));
    a.gy = _mm256_add_ps(a.gy, _mm256_mul_ps(q2, dy));
  }
}

double run(const float* xs, const float* ys, const float* ms, std::size_t n, float px, float py, float* fx, float* fy,
           bool force) {
  const __m256 vx = _mm256_set1_ps(px), vy = _mm256_set1_ps(py);
  Acc lo{_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()}, hi = lo;
  for (std::size_t j = 0; j < n; j += 16) {
    step(lo, xs, ys, ms, j, n, vx, vy, force);
    step(hi, xs, ys, ms, j + 8, n, vx, vy, force);
  }
  if (force) {
    *fx += static_cast<float>(lanes_sum(lo.gx, hi.gx));
    *fy += static_cast<float>(lanes_sum(lo.gy, hi.gy));
  }
  return lanes_sum(lo.s, hi.s);
}

double repulse(const float* xs, const float* ys, std::size_t n, float px, float py, float* fx, float* fy) {
  return run(xs, ys, nullptr, n, px, py, fx, fy, true);
}

double repulse_mass(const float* xs, const float* ys, const float* ms, std::size_t n, float px, float py, float* fx,
                    float* fy) {
  return run(xs, ys, ms, n, px, py, fx, fy, true);
}

double kernel_sum(const float* xs, const float* ys, std::size_t n, float px, float py) {
  return run(xs, ys, nullptr, n, px, py, nullptr, nullptr, false);
}

}  // namespace

const TsneTable kTsneAvx2 = {repulse, repulse_mass, kernel_sum};

}  // namespace lumen::project::kernels
