#include "lumen/eval/procrustes.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "lumen/core/error.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::eval {

namespace {
// Determinant sign of a (d, d) matrix by LU (only the sign is needed: is R a rotation or a reflection).
bool negative_determinant(const ScopedBlasThreads& guard, std::vector<double> m, std::size_t d) {
  std::vector<std::size_t> piv;
  if (blas::dgetrf(guard, d, m.data(), piv) < 0) return false;
  bool negative = false;
  for (std::size_t i = 0; i < d; ++i) {
    if (m[i * d + i] < 0) negative = !negative;
    if (piv[i] != i + 1) negative = !negative;
  }
  return negative;
}
}  // namespace

Procrustes orthogonal_procrustes(const CrossGram& g, std::size_t threads) {
  const ScopedBlasThreads guard(threads);
  if (g.da != g.db)
    throw UsageError(
        fmt::format("Procrustes needs tables of equal d (A has d = {}, B has d = {}); neighbour "
                    "overlap and CKA do not",
                    g.da, g.db));
  const std::size_t d = g.da;
  const double n = static_cast<double>(g.n);
  Procrustes p;
  p.d = d;
  // Uncentred products from the centred ones: AᵀB = XᵀY + n μa μbᵀ, ‖A‖² = tr XᵀX + n ‖μa‖².
  std::vector<double> m(d * d);
  double a2 = 0.0, b2 = 0.0;
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = 0; j < d; ++j) m[i * d + j] = g.ab[i * d + j] + n * g.mean_a[i] * g.mean_b[j];
    a2 += g.aa[i * d + i] + n * g.mean_a[i] * g.mean_a[i];
    b2 += g.bb[i * d + i] + n * g.mean_b[i] * g.mean_b[i];
  }
  std::vector<double> s(d), u(d * d), vt(d * d);
  const int info = blas::dgesvd(guard, d, m.data(), s.data(), u.data(), vt.data());
  if (info != 0) throw Error(fmt::format("Procrustes: the SVD did not converge (LAPACK info {})", info));
  p.R.assign(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t k = 0; k < d; ++k) {
      const double uik = u[i * d + k];
      for (std::size_t j = 0; j < d; ++j) p.R[i * d + j] += uik * vt[k * d + j];
    }
  for (const double x : s) p.scale += x;
  // ‖A R − B‖² = ‖A‖² + ‖B‖² − 2 tr(Rᵀ AᵀB) = ‖A‖² + ‖B‖² − 2 Σ s (clamped: rounding may go below 0).
  p.norm_a = std::sqrt(a2);
  p.norm_b = std::sqrt(b2);
  p.residual = std::sqrt(std::max(0.0, a2 + b2 - 2.0 * p.scale));
  p.relative_residual = p.norm_b > 0 ? p.residual / p.norm_b : std::numeric_limits<double>::quiet_NaN();
  p.reflection = negative_determinant(guard, p.R, d);
  return p;
}

}  // namespace lumen::eval
