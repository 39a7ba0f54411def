#pragma once
// t-SNE's input affinities P: each point's Gaussian over its k nearest neighbours, its width calibrated by a
// binary search on beta = 1/(2 sigma^2) so that the perplexity 2^H equals the one asked for; then symmetrised,
// P = (P_cond + P_cond^T) / 2N, a sparse matrix summing to 1.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lumen/project/neighbours.hpp"

namespace lumen::project {

// P in compressed sparse rows: row i's entries are col[ptr[i] .. ptr[i+1]) with values val[...].
struct SparseP {
  std::size_t n = 0;
  std::vector<std::size_t> ptr;  // (n+1)
  std::vector<std::int32_t> col;
  std::vector<float> val;
  std::size_t nnz() const { return col.size(); }
};

// Conditional affinities, row-normalised (each row sums to 1): (n, k) in the layout of `nb`.
// Throws UsageError if perplexity <= 0 or > k (k neighbours carry a perplexity of at most k).
std::vector<float> conditional_affinities(const Neighbours& nb, double perplexity, std::size_t threads = 0);

// The symmetrised joint P from conditional affinities laid out as `nb`.
SparseP joint_affinities(const Neighbours& nb, const std::vector<float>& conditional);

}  // namespace lumen::project
