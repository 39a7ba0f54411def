#pragma once
// The one run-time dispatch helper. A dispatched module defines one kernel table per ISA (its kernels_<isa>.cpp
// files) and picks among them with dispatch(); dispatch(isa, ...) is for tests and benchmarks that run every
// variant, and refuses an ISA this CPU lacks rather than running an illegal instruction.
#include "lumen/core/simd.hpp"

namespace lumen {

// Throws UsageError naming the ISA when this CPU cannot run it.
void require_isa(Isa isa);

template <class Table>
const Table& dispatch(Isa isa, const Table& generic, const Table& avx2, const Table& avx512) {
  require_isa(isa);
  switch (isa) {
    case Isa::avx512: return avx512;
    case Isa::avx2: return avx2;
    case Isa::generic: break;
  }
  return generic;
}

// The variant for active_isa() (already checked against the CPU when it was chosen).
template <class Table>
const Table& dispatch(const Table& generic, const Table& avx2, const Table& avx512) {
  switch (active_isa()) {
    case Isa::avx512: return avx512;
    case Isa::avx2: return avx2;
    case Isa::generic: break;
  }
  return generic;
}

}  // namespace lumen
