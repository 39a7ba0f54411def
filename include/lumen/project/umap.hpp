#pragma once
// UMAP (McInnes, Healy & Melville 2018), as umap-learn computes it: the k-nearest-neighbour graph (exact), each
// point's fuzzy neighbourhood calibrated by smooth-kNN (ρ_i the distance to its nearest neighbour, σ_i found by
// binary search so that Σ_j exp(−(d_ij − ρ_i)/σ_i) = log2 k), the fuzzy union P = W + Wᵀ − W∘Wᵀ, a spectral start
// (the normalised Laplacian's leading non-trivial eigenvectors), then SGD on the cross-entropy with negative
// sampling, each edge sampled in proportion to its weight, with the curve 1 / (1 + a d^2b) fitted to min_dist and
// spread. Like t-SNE's, its clusters' sizes and the distances between them mean little: see honesty.hpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/progress.hpp"
#include "lumen/project/neighbours.hpp"

namespace lumen::project {

struct UmapOptions {
  std::size_t neighbors = 15;  // k, the point itself included (as umap-learn's n_neighbors)
  double min_dist = 0.1;
  double spread = 1.0;
  std::size_t epochs = 0;  // 0: 500 for up to 10,000 points, else 200 (umap-learn's default)
  double learning_rate = 1.0;
  std::size_t negative_samples = 5;
  double repulsion = 1.0;  // γ, the weight of the negative samples
  std::uint64_t seed = 1;
  bool cosine = false;  // neighbours by cosine (rows unit-normalised first) instead of Euclidean
  // The kNN graph: exact (the all-pairs product) up to `exact_up_to` points, lumen's HNSW index above
  // (docs/project.md has the trustworthiness both ways). knn = "exact" or "hnsw" forces one.
  std::string knn = "auto";
  std::size_t exact_up_to = 20000;
  std::size_t threads = 0;  // 0: the default; 1: the same map for a seed every time (more: lock-free, faster)
  // (stage, done, total): stage "neighbours", "graph", "start" or "layout" (epochs).
  ProgressFn progress;
};

struct UmapResult {
  std::vector<float> Y;  // (N, 2) interleaved x, y
  double a = 0, b = 0;   // the fitted curve
  std::size_t epochs = 0;
  std::size_t k = 0;      // neighbours per point (itself included)
  bool spectral = true;   // false: the start fell back to random (a graph the eigen-solver could not use)
  Neighbours neighbours;  // the input space's k − 1 nearest neighbours (exact, or HNSW's: see `hnsw`)
  bool hnsw = false;      // the graph came from the HNSW index
};

// a and b of 1 / (1 + a x^2b) fitted by least squares to 1 for x < min_dist, exp(−(x − min_dist)/spread) beyond,
// on 300 points of [0, 3 spread] (umap-learn's find_ab_params). UsageError unless 0 <= min_dist <= spread > 0.
void fit_ab(double min_dist, double spread, double& a, double& b);

// X (N, D) f32, N >= 3. UsageError for neighbors < 2 or >= N + 1 (it says how many points there are).
UmapResult umap(const Matrix& X, const UmapOptions& options);

}  // namespace lumen::project
