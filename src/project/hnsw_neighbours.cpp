// UMAP's kNN graph for large tables: lumen's HNSW index instead of the exact all-pairs product.
#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/project/neighbours.hpp"
#include "lumen/search/hnsw.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::project {

Neighbours hnsw_neighbours(const Matrix& X, std::size_t k, std::size_t threads, const ProgressFn& progress) {
  const std::size_t n = X.rows(), d = X.cols();
  if (k == 0) throw UsageError("neighbours: k must be at least 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} points", k, n));
  if (n > static_cast<std::size_t>(INT32_MAX)) throw InputError("neighbours: more than 2^31 points");
  if (X.dtype() != DType::f32) throw UsageError("neighbours: rows must be f32");
  Table t;
  t.E = Matrix::borrow(X.data(), n, d, DType::f32);
  const search::Searcher searcher(t, threads);
  search::HnswOptions ho;
  ho.ef_construction = 100;
  const search::HnswIndex index = search::HnswIndex::build(searcher, search::Metric::euclidean, 0, ho);
  Neighbours nb;
  nb.n = n;
  nb.k = k;
  nb.ids.assign(n * k, 0);
  nb.dist2.assign(n * k, 0.0f);
  constexpr std::size_t kReport = 1024;
  for (std::size_t i = 0; i < n; ++i) {
    const auto found = index.search(X.row(i), k, {static_cast<Id>(i)}, std::max<std::size_t>(64, 2 * k));
    // The graph may find fewer than k (a tiny or disconnected graph): the last found fills the row.
    for (std::size_t j = 0; j < k; ++j) {
      const auto& f =
          found.empty() ? search::Neighbour{static_cast<Id>((i + 1) % n), 0.0f} : found[std::min(j, found.size() - 1)];
      nb.ids[i * k + j] = static_cast<std::int32_t>(f.id);
      nb.dist2[i * k + j] = f.score * f.score;
    }
    if (progress && ((i + 1) % kReport == 0 || i + 1 == n)) progress("neighbours", i + 1, n);
  }
  return nb;
}

}  // namespace lumen::project
