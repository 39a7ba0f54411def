#include "lumen/nn/gather.hpp"

#include <fmt/format.h>

#include "gather_table.hpp"
#include "lumen/core/error.hpp"

namespace lumen::nn {

namespace {
const kernels::GatherTable& table(Isa isa) {
  switch (isa) {
    case Isa::avx512: return kernels::kGatherAvx512;
    case Isa::avx2: return kernels::kGatherAvx2;
    case Isa::generic: break;
  }
  return kernels::kGatherGeneric;
}
}  // namespace

void gather_rows(Isa isa, float* out, const float* E, const Id* ids, std::size_t n, std::size_t d, float scale,
                 bool stream) {
  if (static_cast<int>(isa) > static_cast<int>(detected_isa()))
    throw UsageError(fmt::format("this CPU does not support {}", isa_name(isa)));
  table(isa).gather(out, E, ids, n, d, scale, stream);
}

void gather_rows(float* out, const float* E, const Id* ids, std::size_t n, std::size_t d, float scale, bool stream) {
  table(active_isa()).gather(out, E, ids, n, d, scale, stream);
}

}  // namespace lumen::nn
