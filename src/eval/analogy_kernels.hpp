#pragma once
// Dispatch of the analogy kernels (analogy_kernel_table.hpp) by lumen::active_isa().
#include "analogy_kernel_table.hpp"
#include "lumen/core/simd.hpp"

namespace lumen::eval::kernels {

const Table& table(Isa isa);  // throws UsageError for an ISA this CPU lacks
const Table& active();

}  // namespace lumen::eval::kernels
