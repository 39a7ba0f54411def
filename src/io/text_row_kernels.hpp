#pragma once
// Dispatch of the text reader's row-value scanners (text_row_kernel_table.hpp) by lumen::active_isa().
#include "lumen/core/simd.hpp"
#include "text_row_kernel_table.hpp"

namespace lumen::io::text_row_kernels {

const Table& table(Isa isa);  // throws UsageError for an ISA this CPU lacks
const Table& active();

}  // namespace lumen::io::text_row_kernels
