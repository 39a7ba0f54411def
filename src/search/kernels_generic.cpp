// The plain reference scan kernels: one row at a time, 16 lanes, mul then add, pairwise tree
// (the order of lumen::kernels' generic dot). The SIMD variants must match these bit for bit.
#include "lumen/core/dtype.hpp"
#include "lumen/search/kernel_table.hpp"

namespace lumen::search {
namespace {

constexpr std::size_t kLanes = 16;

float reduce16(float* acc) {
  for (std::size_t w = 8; w >= 1; w /= 2)
    for (std::size_t l = 0; l < w; ++l) acc[l] = acc[l] + acc[l + w];
  return acc[0];
}

// Term: dot (q*r) or squared difference ((q-r)^2), per element; Load: a stored element as f32.
template <bool kL2, class T, class Load>
void scan(const float* q, const T* rows, std::size_t n, std::size_t d, float* out, Load load) {
  for (std::size_t r = 0; r < n; ++r) {
    const T* row = rows + r * d;
    float acc[kLanes] = {};
    for (std::size_t i = 0; i < d; i += kLanes) {
      const std::size_t m = d - i < kLanes ? d - i : kLanes;
      for (std::size_t l = 0; l < m; ++l) {
        const float x = load(row[i + l]);
        if constexpr (kL2) {
          const float diff = q[i + l] - x;
          acc[l] = acc[l] + diff * diff;
        } else {
          acc[l] = acc[l] + q[i + l] * x;
        }
      }
    }
    out[r] = reduce16(acc);
  }
}

float id(float x) { return x; }
float from_f16(std::uint16_t h) { return f16_to_f32(h); }
float from_bf16(std::uint16_t b) { return bf16_to_f32(b); }

void dots_f32(const float* q, const float* rows, std::size_t n, std::size_t d, float* out) {
  scan<false>(q, rows, n, d, out, id);
}
void dots_f16(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out) {
  scan<false>(q, rows, n, d, out, from_f16);
}
void dots_bf16(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out) {
  scan<false>(q, rows, n, d, out, from_bf16);
}
void l2sq_f32(const float* q, const float* rows, std::size_t n, std::size_t d, float* out) {
  scan<true>(q, rows, n, d, out, id);
}
void l2sq_f16(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out) {
  scan<true>(q, rows, n, d, out, from_f16);
}
void l2sq_bf16(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out) {
  scan<true>(q, rows, n, d, out, from_bf16);
}

}  // namespace

const ScanKernels kScanGeneric = {dots_f32, dots_f16, dots_bf16, l2sq_f32, l2sq_f16, l2sq_bf16};

}  // namespace lumen::search
