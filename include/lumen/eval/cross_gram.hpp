#pragma once
// The products of two tables over the same n words that Procrustes and CKA are made of: AᵀA (dA,dA), BᵀB (dB,dB)
// and AᵀB (dA,dB) of the column-centred rows, and the column means. Accumulated in double, so that the
// comparisons built on them agree with a float64 NumPy computation.
#include <cstddef>
#include <vector>

#include "lumen/core/matrix.hpp"

namespace lumen::eval {

struct CrossGram {
  std::size_t n = 0, da = 0, db = 0;
  std::vector<double> mean_a, mean_b;  // (dA), (dB): column means
  std::vector<double> aa, bb, ab;      // centred: XᵀX (dA,dA), YᵀY (dB,dB), XᵀY (dA,dB), row-major
};

// A (n, dA) and B (n, dB), any dtype, row i of each the same word. Throws InputError if the row counts differ
// or n == 0. threads = 0: the default.
CrossGram cross_gram(const Matrix& A, const Matrix& B, std::size_t threads = 0);

}  // namespace lumen::eval
