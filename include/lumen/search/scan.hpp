#pragma once
// Run-time dispatch of the scan kernels (see kernel_table.hpp and lumen/core/simd.hpp).
#include "lumen/core/simd.hpp"
#include "lumen/search/kernel_table.hpp"

namespace lumen::search {

const ScanKernels& scan_kernels(Isa isa);  // throws UsageError for an ISA this CPU lacks
const ScanKernels& scan_kernels();         // the variant for lumen::active_isa()

}  // namespace lumen::search
