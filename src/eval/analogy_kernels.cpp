#include "analogy_kernels.hpp"

#include <algorithm>

#include "lumen/core/error.hpp"

namespace lumen::eval::kernels {

const Table& table(Isa isa) {
  const auto isas = available_isas();
  if (std::find(isas.begin(), isas.end(), isa) == isas.end())
    throw UsageError("this CPU cannot run the " + std::string(isa_name(isa)) + " kernels");
  switch (isa) {
    case Isa::avx512: return kAvx512;
    case Isa::avx2: return kAvx2;
    default: return kGeneric;
  }
}

const Table& active() { return table(active_isa()); }

}  // namespace lumen::eval::kernels
