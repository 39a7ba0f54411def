#pragma once
// The cosine of two rows, summed in double: for the few cosines a report shows (a claim's pairs, drift's two
// states), where exactness matters more than speed. Bulk searches go through the dispatched kernels and BLAS.
#include <span>

namespace lumen {

// a . b / (|a| |b|) over the shorter length; 0 when either row is all zeros.
double cosine(std::span<const float> a, std::span<const float> b);

}  // namespace lumen
