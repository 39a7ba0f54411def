#include "lumen/nn/gather.hpp"

#include "gather_table.hpp"
#include "lumen/core/dispatch.hpp"

namespace lumen::nn {

void gather_rows(Isa isa, float* out, const float* E, const Id* ids, std::size_t n, std::size_t d, float scale,
                 bool stream) {
  dispatch(isa, kernels::kGatherGeneric, kernels::kGatherAvx2, kernels::kGatherAvx512)
      .gather(out, E, ids, n, d, scale, stream);
}

void gather_rows(float* out, const float* E, const Id* ids, std::size_t n, std::size_t d, float scale, bool stream) {
  dispatch(kernels::kGatherGeneric, kernels::kGatherAvx2, kernels::kGatherAvx512)
      .gather(out, E, ids, n, d, scale, stream);
}

}  // namespace lumen::nn
