// The plain reference scan kernels: one row at a time, 16 lanes, mul then add, pairwise tree
// (the order of lumen::kernels' generic dot). The SIMD variants must match these bit for bit.
#include "lumen/core/dtype.hpp"
#include "lumen/search/kernel_table.hpp"

namespace lumen::search {
namespace {

#include "core/lanes_generic.hpp"

// Term: dot (q*r) or squared difference ((q-r)^2), per element; L::load: a stored element as f32.
template <bool kL2, class L>
void scan(const float* q, const typename L::T* rows, std::size_t n, std::size_t d, float* out) {
  for (std::size_t r = 0; r < n; ++r) {
    const typename L::T* row = rows + r * d;
    float acc[kLanes] = {};
    for (std::size_t i = 0; i < d; i += kLanes) {
      const std::size_t m = d - i < kLanes ? d - i : kLanes;
      for (std::size_t l = 0; l < m; ++l) {
        const float x = L::load(row[i + l]);
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

struct LoadF32 {
  using T = float;
  static float load(float x) { return x; }
};
struct LoadF16 {
  using T = std::uint16_t;
  static float load(std::uint16_t h) { return f16_to_f32(h); }
};
struct LoadBF16 {
  using T = std::uint16_t;
  static float load(std::uint16_t b) { return bf16_to_f32(b); }
};

}  // namespace

const ScanKernels kScanGeneric = {scan<false, LoadF32>, scan<false, LoadF16>, scan<false, LoadBF16>,
                                  scan<true, LoadF32>,  scan<true, LoadF16>,  scan<true, LoadBF16>};

}  // namespace lumen::search
