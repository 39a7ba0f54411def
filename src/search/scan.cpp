#include "lumen/search/scan.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen::search {

const ScanKernels& scan_kernels(Isa isa) {
  if (static_cast<int>(isa) > static_cast<int>(detected_isa()))
    throw UsageError(fmt::format("this CPU does not support {}", isa_name(isa)));
  switch (isa) {
    case Isa::avx512: return kScanAvx512;
    case Isa::avx2: return kScanAvx2;
    case Isa::generic: break;
  }
  return kScanGeneric;
}

const ScanKernels& scan_kernels() {
  switch (active_isa()) {
    case Isa::avx512: return kScanAvx512;
    case Isa::avx2: return kScanAvx2;
    case Isa::generic: break;
  }
  return kScanGeneric;
}

}  // namespace lumen::search
