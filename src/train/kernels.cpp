#include "lumen/train/kernels.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen::train::kernels {

const Table& table(Isa isa) {
  if (static_cast<int>(isa) > static_cast<int>(detected_isa()))
    throw UsageError(fmt::format("this CPU does not support {}", isa_name(isa)));
  switch (isa) {
    case Isa::avx512: return kAvx512;
    case Isa::avx2: return kAvx2;
    case Isa::generic: break;
  }
  return kGeneric;
}

const Table& active() { return table(active_isa()); }

}  // namespace lumen::train::kernels
