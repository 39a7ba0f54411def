#pragma once
// Dispatch of the fused logistic-regression kernels (logistic_kernel_table.hpp) by lumen::active_isa().
#include "logistic_kernel_table.hpp"
#include "lumen/core/simd.hpp"

namespace lumen::eval::logistic_kernels {

const Table& table(Isa isa);  // throws UsageError for an ISA this CPU lacks
const Table& active();

}  // namespace lumen::eval::logistic_kernels
