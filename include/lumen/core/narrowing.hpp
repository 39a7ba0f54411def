#pragma once
// Storing a table as f16 or bf16 loses the values the type cannot hold: f16 tops out at 65504 and has nothing
// nonzero below 2^-25; bf16 has f32's range but not all of its subnormals. Such values become +-Inf or +-0.
// They are counted here, so that no conversion loses them silently.
#include <cstddef>

#include "lumen/core/matrix.hpp"

namespace lumen {

struct NarrowingLoss {
  std::size_t to_inf = 0;   // finite values that became +-Inf (too large)
  std::size_t to_zero = 0;  // nonzero values that became +-0 (too small)
  bool any() const { return to_inf != 0 || to_zero != 0; }
};

// Compares `wide` with its narrowed copy `narrow` (same shape), element by element. NaN and Inf stay what they
// were and are not counted. Throws Error if the shapes differ.
NarrowingLoss narrowing_loss(const Matrix& wide, const Matrix& narrow);

// wide.to(dtype), with what the conversion lost in `loss`.
Matrix narrow_to(const Matrix& wide, DType dtype, NarrowingLoss& loss);

}  // namespace lumen
