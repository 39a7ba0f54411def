// The plain reference of t-SNE's O(N^2) loops: 16 running sums (the lanes the SIMD variants use).
#include "lumen/project/tsne_kernels.hpp"

namespace lumen::project::kernels {
namespace {

// Repulsion on one point from n others: sum_j w q_j and sum_j w q_j^2 (p - y_j), q = 1 / (1 + |p - y_j|^2),
// with weight w = 1 (exact repulsion) or a cell's mass m_j (Barnes-Hut).
template <bool kMass>
double repulse_lanes(const float* xs, const float* ys, const float* ms, std::size_t n, float px, float py, float* fx,
                     float* fy) {
  float s[16] = {}, gx[16] = {}, gy[16] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const float dx = px - xs[j], dy = py - ys[j];
    const float q = 1.0f / (1.0f + (dx * dx + dy * dy));
    const float wq = kMass ? ms[j] * q : q;
    const float wq2 = wq * q;
    s[j % 16] += wq;
    gx[j % 16] += wq2 * dx;
    gy[j % 16] += wq2 * dy;
  }
  double sum = 0, sx = 0, sy = 0;
  for (int l = 0; l < 16; ++l) {
    sum += s[l];
    sx += gx[l];
    sy += gy[l];
  }
  *fx += static_cast<float>(sx);
  *fy += static_cast<float>(sy);
  return sum;
}

double repulse(const float* xs, const float* ys, std::size_t n, float px, float py, float* fx, float* fy) {
  return repulse_lanes<false>(xs, ys, nullptr, n, px, py, fx, fy);
}

double kernel_sum(const float* xs, const float* ys, std::size_t n, float px, float py) {
  float s[16] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const float dx = px - xs[j], dy = py - ys[j];
    s[j % 16] += 1.0f / (1.0f + (dx * dx + dy * dy));
  }
  double sum = 0;
  for (float v : s) sum += v;
  return sum;
}

}  // namespace

const TsneTable kTsneGeneric = {repulse, repulse_lanes<true>, kernel_sum};

}  // namespace lumen::project::kernels
