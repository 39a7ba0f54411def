// The plain reference the SIMD variants are tested against.
#include "analogy_kernel_table.hpp"

namespace lumen::eval::kernels {

namespace {

std::size_t add_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float s = (sb[i] + sc[i]) - sa[i];
    if (s > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  }
  return m;
}

std::size_t mul_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float pa = (1.0f + sa[i]) / 2.0f, pb = (1.0f + sb[i]) / 2.0f, pc = (1.0f + sc[i]) / 2.0f;
    const float s = (pb * pc) / (pa + 1e-6f);
    if (s > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  }
  return m;
}

}  // namespace

const Table kGeneric = {add_above, mul_above};

}  // namespace lumen::eval::kernels
