#pragma once
// The row gather behind Embedding::forward, one variant per ISA (gather_<isa>.cpp), chosen at run time.
// Kernel files compiled with ISA flags include only this plain header and intrinsics (see kernel_table.hpp).
#include <cstddef>
#include <cstdint>

namespace lumen::nn::kernels {

struct GatherTable {
  // out[p] = E[ids[p]] * scale for p in [0, n), rows of d floats (scale == 1: a plain copy). ids are in range.
  // stream: write with non-temporal stores (for outputs far larger than the cache: no read-for-ownership).
  // Every variant gives the same bits (one multiply per element, or none).
  void (*gather)(float* out, const float* E, const std::int64_t* ids, std::size_t n, std::size_t d, float scale,
                 bool stream);
};

extern const GatherTable kGatherGeneric;
extern const GatherTable kGatherAvx2;
extern const GatherTable kGatherAvx512;

}  // namespace lumen::nn::kernels
