#pragma once
// Exact cosine neighbours of every row, pruned by a low-rank bound: with rows unit-normalised and P (d, r) the top r
// principal directions of their Gram matrix, z = Pᵀu and ρ = |u − Pz|, cos(u, v) = z_u·z_v + (u − Pz_u)·(v − Pz_v)
// ≤ z_u·z_v + ρ_u ρ_v (Cauchy-Schwarz). For each query, the exact scores of its k + 1 best rows by the rank-r
// product give a threshold t no higher than its true (k+1)-th best score; only rows whose bound reaches t (less a
// margin for rounding) are rescored exactly, so the result is exactly cosine_neighbours_scan's (same scores, same
// ties) at a fraction of the work when the table's spectrum is steep (word2vec: ~0.1-2% of the rows rescored).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/eval/neighbour_overlap.hpp"

namespace lumen::eval {

struct PruneStats {
  std::size_t rank = 0;           // r
  double mean_candidates = 0;     // rows rescored exactly per query
  bool gave_up = false;           // the bound could not prune enough (see max_share): nothing returned
  double residual = 0;            // the share of the unit rows' energy outside the r leading directions (mean rho^2)
  std::size_t spectrum_rows = 0;  // the rows `residual` was measured on (a sample of a large table, or all)
};

// Whether the bound applies: every row finite with a non-zero norm, and d >= 2.
bool prunable(const Matrix& X);

// X (n, d) f32 and prunable; 1 <= k < n. threads 0: the default. queries: the rows of X to find neighbours for
// (list q for queries[q]; nullptr: every row). progress(done, queries) after each block of queries.
// max_share < 1: give up (an empty result, stats->gave_up) when the spectrum is too flat for the bound (the r
// leading directions leave more than a quarter of the energy; on a large table judged first from a sample of
// 8192 rows), or when the first block of queries rescores more
// than that share of the rows on average; the all-pairs scan is then faster.
NeighbourLists pruned_cosine_neighbours(const Matrix& X, std::size_t k, std::size_t threads = 0,
                                        const ProgressFn& progress = {}, PruneStats* stats = nullptr,
                                        double max_share = 1.0, const std::vector<std::int32_t>* queries = nullptr);

}  // namespace lumen::eval
