#include "lumen/search/scan.hpp"

#include "lumen/core/dispatch.hpp"

namespace lumen::search {

const ScanKernels& scan_kernels(Isa isa) { return dispatch(isa, kScanGeneric, kScanAvx2, kScanAvx512); }
const ScanKernels& scan_kernels() { return dispatch(kScanGeneric, kScanAvx2, kScanAvx512); }

}  // namespace lumen::search
