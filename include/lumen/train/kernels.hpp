#pragma once
// Training's hot loops, dispatched at run time like the core kernels (lumen::active_isa()).
// Each variant computes every element with the same operations in the same order (mul then add, no FMA
// contraction), so the variants agree bit for bit: tests/train/test_kernels.cpp checks it.
#include "lumen/core/simd.hpp"
#include "lumen/train/kernel_table.hpp"

namespace lumen::train::kernels {

const Table& table(Isa isa);  // throws UsageError for an ISA this CPU lacks
const Table& active();        // the table for active_isa()

}  // namespace lumen::train::kernels
