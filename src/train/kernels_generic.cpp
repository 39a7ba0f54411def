// The plain reference for the training kernels. Kept free of -ffast-math style reordering: every element is
// one multiply and one add, which is what the SIMD variants do lane by lane.
#include "lumen/train/kernel_table.hpp"

namespace lumen::train::kernels {
namespace {

void pair_update(float* g, float* o, const float* h, float a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float oi = o[i];
    g[i] = g[i] + a * oi;
    o[i] = oi + a * h[i];
  }
}

void scale(float* y, float a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a * y[i];
}

}  // namespace

const Table kGeneric = {pair_update, scale};

}  // namespace lumen::train::kernels
