#pragma once
// t-SNE (van der Maaten & Hinton 2008; Barnes-Hut: van der Maaten 2014), with the optimiser of the reference
// implementation: early exaggeration, momentum 0.5 then 0.8, per-coordinate gains (+0.2 / x0.8, at least 0.01).
// Its clusters are pretty, but their sizes and the distances between them mean nothing, and another seed
// gives another map (Wattenberg et al. 2016): see honesty.hpp for the numbers that keep it honest.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/project/affinities.hpp"

namespace lumen::project {

struct TsneOptions {
  double perplexity = 30.0;       // neighbours k = 3 x perplexity (fewer if there are fewer points)
  std::size_t iterations = 1000;  // in all, early exaggeration included
  double early_exaggeration = 12.0;
  std::size_t exaggeration_iterations = 250;
  double learning_rate = 0.0;      // 0: auto = max(N / early_exaggeration / 4, 50)
  double theta = 0.5;              // Barnes-Hut opening angle; 0: the exact O(N^2) gradient
  std::size_t exact_below = 1000;  // with N below this, the exact gradient whatever theta
  std::uint64_t seed = 1;          // the jitter added to the PCA start, or the random start
  bool random_init = false;        // start from N(0, 1e-4^2) instead of PCA
  bool cosine = false;             // neighbours by cosine (rows unit-normalised first) instead of Euclidean
  std::size_t threads = 0;         // 0: the default
  // Called now and then with (stage, done, total): stage is "neighbours", "affinities" or "optimise".
  ProgressFn progress;
};

struct TsneResult {
  std::vector<float> Y;         // (N, 2) interleaved x, y
  double kl = 0.0;              // final KL(P || Q), with the exact normalisation Z
  double learning_rate = 0.0;   // the one used (auto resolved)
  double perplexity = 0.0;      // the one used (lowered to (N-1)/3 for few points)
  bool exact_gradient = false;  // whether the O(N^2) gradient was used
  std::size_t k = 0;            // neighbours per point
  Neighbours neighbours;        // the input space's exact k nearest neighbours (for honesty numbers)
};

// X (N, D) f32, N >= 2. The initial map is the first two principal components scaled so that the first
// coordinate's standard deviation is 1e-4 (as scikit-learn and openTSNE), plus a tiny seeded jitter (1e-10) so that
// equal rows do not sit on top of each other; or, with random_init, N(0, 1e-4^2) from the seed.
TsneResult tsne(const Matrix& X, const TsneOptions& options);

// The gradient of KL(P || Q) at Y (n, 2), P multiplied by `exaggeration`; theta = 0: exact, else Barnes-Hut.
// Returns the normalisation Z = sum_{i != j} (1 + |y_i - y_j|^2)^-1 (estimated by the tree under Barnes-Hut).
double tsne_gradient(const SparseP& P, const std::vector<float>& Y, double exaggeration, double theta,
                     std::vector<float>& grad, std::size_t threads = 0);

// KL(P || Q) of a map, with Q's normalisation computed exactly (O(N^2), vectorised).
double tsne_kl(const SparseP& P, const std::vector<float>& Y, std::size_t threads = 0);

}  // namespace lumen::project

#include "lumen/core/progress.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/project/tsne_kernels.hpp"

namespace lumen::project {
// The t-SNE kernel table for an ISA (throws UsageError for one this CPU lacks); tsne() uses active_isa()'s.
const kernels::TsneTable& tsne_kernels(Isa isa);
}  // namespace lumen::project
