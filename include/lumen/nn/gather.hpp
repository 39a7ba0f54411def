#pragma once
// The row gather behind Embedding::forward, dispatched at run time (generic, AVX2, AVX-512).
#include <cstddef>

#include "lumen/core/simd.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::nn {

// out (n,d): row p = E[ids[p]] * scale (scale == 1: an exact copy). ids must already be checked.
// stream: non-temporal stores, for outputs much larger than the cache. Every ISA gives the same bits.
// `isa` picks the variant (tests); throws UsageError if this CPU lacks it.
void gather_rows(Isa isa, float* out, const float* E, const Id* ids, std::size_t n, std::size_t d, float scale,
                 bool stream);
// The same with active_isa().
void gather_rows(float* out, const float* E, const Id* ids, std::size_t n, std::size_t d, float scale, bool stream);

}  // namespace lumen::nn
