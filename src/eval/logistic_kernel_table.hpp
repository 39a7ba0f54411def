#pragma once
// The fused logistic-regression row kernels one ISA provides (logistic_kernels_<isa>.cpp define one each).
// Files compiled with ISA flags include only this header and intrinsics (see lumen/core/kernel_table.hpp).
//
// For each row x_i of X (n, d), row-major, with W (K, d) row-major and b (K), in one pass while the row is in L1:
//   z_k = W_k · x_i + b_k,  p = softmax(z),  loss += log Σ_k exp z_k − z_{y_i},
//   gW_k += (p_k − [k = y_i]) x_i,  gb_k += p_k − [k = y_i],
// and returns the loss summed over the rows (unscaled: the caller takes the mean). z is scratch of kScratchRows * K
// doubles (the SIMD variants add a block of that many rows to the gradient at once).
// Float rows are widened in registers (exact). Bit for bit across variants: every dot product sums in the same 16
// lanes (lane l takes elements l, l+16, ...; then the tree (l, l+8), (l, l+4), (l, l+2), (l, l+1)), mul then add
// (no FMA), the softmax is the same scalar code, and each gradient entry adds its rows in row order.
#include <cstddef>

namespace lumen::eval::logistic_kernels {

inline constexpr std::size_t kScratchRows = 8;

struct Table {
  double (*rows_f64)(const double* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W,
                     const double* b, double* z, double* gW, double* gb);
  double (*rows_f32)(const float* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W,
                     const double* b, double* z, double* gW, double* gb);
};

extern const Table kGeneric;
extern const Table kAvx2;
extern const Table kAvx512;

}  // namespace lumen::eval::logistic_kernels
