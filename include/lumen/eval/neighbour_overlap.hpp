#pragma once
// How much two tables agree on each word's neighbourhood: the share of its k nearest words by cosine (the word
// itself excluded) that the two tables have in common. Needs no equal d.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/progress.hpp"

namespace lumen::eval {

struct NeighbourLists {
  std::size_t n = 0, k = 0;       // n lists (one per query) of k
  std::vector<std::int32_t> ids;  // (n, k) nearest first, ids index the rows of X
  std::vector<float> cosine;      // (n, k)
  const std::int32_t* row(std::size_t i) const { return ids.data() + i * k; }
};

// The k nearest rows of X (n, d) by cosine to each of its rows (queries: only these rows of X, list q for
// queries[q]; nullptr: every row), itself excluded; ties go to the lower row. Exact. UsageError unless 1 <= k < n.
// progress(done, queries) after each batch. From 4096 rows and d >= 64 (every row finite and non-zero) through the
// low-rank bound of pruned_neighbours.hpp, which gives the same lists; otherwise cosine_neighbours_scan.
NeighbourLists cosine_neighbours(const Matrix& X, std::size_t k, std::size_t threads = 0,
                                 const ProgressFn& progress = {}, const std::vector<std::int32_t>* queries = nullptr);
// The same by lumen::search's batch top-k over every row (all pairs): the reference the pruned path is tested on.
NeighbourLists cosine_neighbours_scan(const Matrix& X, std::size_t k, std::size_t threads = 0,
                                      const ProgressFn& progress = {},
                                      const std::vector<std::int32_t>* queries = nullptr);

// |a.row(i) ∩ b.row(i)| / k for every row i. Both lists over the same n rows, with the same k.
std::vector<double> neighbour_overlap(const NeighbourLists& a, const NeighbourLists& b);

}  // namespace lumen::eval
