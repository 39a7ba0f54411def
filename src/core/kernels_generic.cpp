// The plain reference kernels. The SIMD variants must match these bit for bit: same 16 lanes,
// mul then add (no FMA), same reduction tree.
#include "lumen/core/dtype.hpp"
#include "lumen/core/kernel_table.hpp"

namespace lumen::kernels {
namespace {

#include "core/lanes_generic.hpp"

template <class Load>
float dot_lanes(const float* q, std::size_t n, Load load) {
  float acc[kLanes] = {};
  for (std::size_t i = 0; i < n; i += kLanes) {
    const std::size_t m = n - i < kLanes ? n - i : kLanes;
    for (std::size_t l = 0; l < m; ++l) acc[l] = acc[l] + q[i + l] * load(i + l);
  }
  return reduce16(acc);
}

float dot_f32(const float* a, const float* b, std::size_t n) {
  return dot_lanes(a, n, [b](std::size_t i) { return b[i]; });
}
float dot_f16(const float* q, const std::uint16_t* r, std::size_t n) {
  return dot_lanes(q, n, [r](std::size_t i) { return f16_to_f32(r[i]); });
}
float dot_bf16(const float* q, const std::uint16_t* r, std::size_t n) {
  return dot_lanes(q, n, [r](std::size_t i) { return bf16_to_f32(r[i]); });
}
void cvt_f16_f32(const std::uint16_t* s, float* d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = f16_to_f32(s[i]);
}
void cvt_bf16_f32(const std::uint16_t* s, float* d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = bf16_to_f32(s[i]);
}
void cvt_f32_f16(const float* s, std::uint16_t* d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = f32_to_f16(s[i]);
}
void cvt_f32_bf16(const float* s, std::uint16_t* d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = f32_to_bf16(s[i]);
}
void add_f32(float* y, const float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = y[i] + x[i];
}
void axpy_f32(float* y, float a, const float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = y[i] + a * x[i];
}

}  // namespace

const Table kGeneric = {dot_f32,     dot_f16,      dot_bf16, cvt_f16_f32, cvt_bf16_f32,
                        cvt_f32_f16, cvt_f32_bf16, add_f32,  axpy_f32};

}  // namespace lumen::kernels
