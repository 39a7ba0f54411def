#pragma once
// PCA: the exact top-k principal components of a table (or of some of its rows).
// Linear and deterministic, but it squashes clusters: the variance the axes hold says how much it keeps.
#include <cstddef>
#include <span>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::project {

struct Pca {
  std::vector<float> mean;             // (d): the centre the components are taken around
  Matrix components;                   // (k, d): unit rows, largest variance first
  std::vector<double> variance;        // (k): variance along each component (divided by N-1)
  std::vector<double> variance_ratio;  // (k): its share of the total variance
  double total_variance = 0.0;         // trace of the covariance
  std::size_t d() const { return mean.size(); }
  std::size_t k() const { return components.rows(); }
};

// Fits the top k components of E's rows `rows` (empty: every row). Covariance (d,d) through BLAS when N >= d,
// the Gram matrix (N,N) when N < d; a symmetric eigensolver (LAPACK ?syevr) picks the top k exactly.
// Each component's sign is fixed so that its largest-magnitude coordinate is positive (as scikit-learn's svd_flip
// does for the other factor), so results are reproducible. threads = 0: the default.
Pca fit_pca(const Matrix& E, std::span<const Id> rows, std::size_t k, std::size_t threads = 0);

// Coordinates of E's rows `rows` (empty: every row) on the components: Y (N, k).
Matrix pca_transform(const Pca& pca, const Matrix& E, std::span<const Id> rows, std::size_t threads = 0);

}  // namespace lumen::project
