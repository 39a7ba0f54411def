#pragma once
// Orthogonal Procrustes (Schönemann 1966): the rotation R (d,d), RᵀR = I, that brings table A closest to table B
// over their shared words, minimising ‖A R − B‖_F. R = U Vᵀ from the SVD AᵀB = U S Vᵀ, as
// scipy.linalg.orthogonal_procrustes. The rows are taken as they are (not centred, not normalised).
#include <cstddef>
#include <vector>

#include "lumen/eval/cross_gram.hpp"

namespace lumen::eval {

struct Procrustes {
  std::size_t d = 0;
  std::vector<double> R;          // (d, d) row-major: A R ≈ B
  double scale = 0;               // sum of AᵀB's singular values (scipy's second result)
  double residual = 0;            // ‖A R − B‖_F
  double relative_residual = 0;   // residual / ‖B‖_F (0: B is rotated A; NaN when B is zero)
  double norm_a = 0, norm_b = 0;  // ‖A‖_F, ‖B‖_F
  bool reflection = false;        // det R = −1: the best orthogonal map includes a mirror
};

// Needs dA == dB: otherwise UsageError saying so (neighbour overlap and CKA need no equal d). The SVD runs on
// `threads` BLAS threads (0: the default).
Procrustes orthogonal_procrustes(const CrossGram& g, std::size_t threads = 0);

}  // namespace lumen::eval
