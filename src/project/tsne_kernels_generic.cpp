// The plain reference of t-SNE's O(N^2) loops: 16 running sums (the lanes the SIMD variants use).
#include "lumen/project/tsne_kernels.hpp"

namespace lumen::project::kernels {
namespace {

double repulse(const float* xs, const float* ys, std::size_t n, float px, float py, float* fx, float* fy) {
  float s[16] = {}, gx[16] = {}, gy[16] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const float dx = px - xs[j], dy = py - ys[j];
    const float q = 1.0f / (1.0f + (dx * dx + dy * dy));
    const float q2 = q * q;
    s[j % 16] += q;
    gx[j % 16] += q2 * dx;
    gy[j % 16] += q2 * dy;
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

double repulse_mass(const float* xs, const float* ys, const float* ms, std::size_t n, float px, float py, float* fx,
                    float* fy) {
  float s[16] = {}, gx[16] = {}, gy[16] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const float dx = px - xs[j], dy = py - ys[j];
    const float q = 1.0f / (1.0f + (dx * dx + dy * dy));
    const float mq = ms[j] * q;
    const float mq2 = mq * q;
    s[j % 16] += mq;
    gx[j % 16] += mq2 * dx;
    gy[j % 16] += mq2 * dy;
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

const TsneTable kTsneGeneric = {repulse, repulse_mass, kernel_sum};

}  // namespace lumen::project::kernels
