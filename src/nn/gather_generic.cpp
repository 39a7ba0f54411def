// The plain reference gather: memcpy of each row (or a multiply by the scale).
#include <cstring>

#include "gather_table.hpp"

namespace lumen::nn::kernels {
namespace {

void gather(float* out, const float* E, const std::int64_t* ids, std::size_t n, std::size_t d, float scale, bool) {
  for (std::size_t p = 0; p < n; ++p) {
    const float* src = E + static_cast<std::size_t>(ids[p]) * d;
    float* dst = out + p * d;
    if (scale == 1.0f) {
      std::memcpy(dst, src, d * sizeof(float));
    } else {
      for (std::size_t j = 0; j < d; ++j) dst[j] = src[j] * scale;
    }
  }
}

}  // namespace

const GatherTable kGatherGeneric = {gather};

}  // namespace lumen::nn::kernels
