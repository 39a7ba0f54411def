#pragma once
// The training kernels one ISA provides; each src/train/kernels_<isa>.cpp defines one. Kernel files compiled
// with ISA flags include only this header and intrinsics (see include/lumen/core/kernel_table.hpp for why).
#include <cstddef>

namespace lumen::train::kernels {

struct Table {
  // One negative-sampling target, after its score: g += a*o; o += a*h (o read before it is updated).
  // h is the hidden vector, o the target's output row, g the gradient collected for the input rows.
  void (*pair_update)(float* g, float* o, const float* h, float a, std::size_t n);
  // y = a*x (CBOW's mean of the context rows, scaled once summed).
  void (*scale)(float* y, float a, std::size_t n);
};

extern const Table kGeneric;
extern const Table kAvx2;
extern const Table kAvx512;

}  // namespace lumen::train::kernels
