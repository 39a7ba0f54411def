#include "lumen/eval/neighbour_overlap.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/eval/pruned_neighbours.hpp"
#include "lumen/search/nearest_others.hpp"

namespace lumen::eval {

NeighbourLists cosine_neighbours(const Matrix& X, std::size_t k, std::size_t threads, const ProgressFn& progress,
                                 const std::vector<std::int32_t>* queries) {
  // The pruned path pays only when the bound prunes: it gives up after its first block of queries when they
  // rescore more than 2% of the rows (a flat spectrum), and the scan runs instead.
  if (X.rows() >= 4096 && X.cols() >= 64 && k < X.rows() && k > 0 && prunable(X)) {
    PruneStats stats;
    NeighbourLists nb = pruned_cosine_neighbours(X, k, threads, progress, &stats, 0.02, queries);
    if (!stats.gave_up) return nb;
  }
  return cosine_neighbours_scan(X, k, threads, progress, queries);
}

NeighbourLists cosine_neighbours_scan(const Matrix& X, std::size_t k, std::size_t threads, const ProgressFn& progress,
                                      const std::vector<std::int32_t>* queries) {
  NeighbourLists nb;
  nb.n = queries ? queries->size() : X.rows();
  nb.k = k;
  nb.ids.resize(nb.n * k);
  nb.cosine.resize(nb.n * k);
  search::nearest_others(
      X, queries, k, search::Metric::cosine, threads,
      [&](std::size_t i, std::size_t j, const search::Neighbour& f) {
        nb.ids[i * k + j] = static_cast<std::int32_t>(f.id);
        nb.cosine[i * k + j] = f.score;
      },
      progress);
  return nb;
}

std::vector<double> neighbour_overlap(const NeighbourLists& a, const NeighbourLists& b) {
  if (a.n != b.n || a.k != b.k)
    throw InputError(fmt::format("neighbour overlap: {} x {} lists against {} x {}", a.n, a.k, b.n, b.k));
  std::vector<double> share(a.n);
  std::vector<std::int32_t> x(a.k), y(a.k);
  for (std::size_t i = 0; i < a.n; ++i) {
    std::copy(a.row(i), a.row(i) + a.k, x.begin());
    std::copy(b.row(i), b.row(i) + b.k, y.begin());
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    std::size_t both = 0;
    for (std::size_t p = 0, q = 0; p < a.k && q < b.k;) {
      if (x[p] < y[q]) ++p;
      else if (y[q] < x[p]) ++q;
      else ++both, ++p, ++q;
    }
    share[i] = static_cast<double>(both) / static_cast<double>(a.k);
  }
  return share;
}

}  // namespace lumen::eval
