#pragma once
// The k nearest rows of a matrix to rows of that same matrix, each one's own row left out: the neighbour lists
// t-SNE's affinities, a map's honesty numbers and the comparison of two tables are made of. One exact search
// (Searcher::search_batch asks for k + 1), then the query's own row dropped; when another row ties with it and
// outranks it, the last of the k + 1 is dropped instead.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/progress.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/neighbour.hpp"

namespace lumen::search {

// X (n, d) any dtype. For each query (row ids of X; nullptr: every row, in order) calls keep(q, j, neighbour) with
// its j-th nearest other row, j < k, nearest first (q indexes `queries`). UsageError unless 1 <= k < n; IdError for
// a query outside [0, n). progress(done, total) after each batch of queries.
void nearest_others(const Matrix& X, const std::vector<std::int32_t>* queries, std::size_t k, Metric metric,
                    std::size_t threads, const std::function<void(std::size_t, std::size_t, const Neighbour&)>& keep,
                    const ProgressFn& progress = {});

}  // namespace lumen::search
