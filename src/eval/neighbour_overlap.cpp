#include "lumen/eval/neighbour_overlap.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/pruned_neighbours.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::eval {

namespace {
constexpr std::size_t kBatch = 2048;  // queries per batch (progress granularity)
}  // namespace

NeighbourLists cosine_neighbours(const Matrix& X, std::size_t k, std::size_t threads,
                                 const std::function<void(std::size_t, std::size_t)>& progress) {
  // The pruned path pays only when the bound prunes: it gives up after its first block of queries when they
  // rescore more than 2% of the rows (a flat spectrum), and the scan runs instead.
  if (X.rows() >= 4096 && X.cols() >= 64 && k < X.rows() && k > 0 && prunable(X)) {
    PruneStats stats;
    NeighbourLists nb = pruned_cosine_neighbours(X, k, threads, progress, &stats, 0.02);
    if (!stats.gave_up) return nb;
  }
  return cosine_neighbours_scan(X, k, threads, progress);
}

NeighbourLists cosine_neighbours_scan(const Matrix& X, std::size_t k, std::size_t threads,
                                      const std::function<void(std::size_t, std::size_t)>& progress) {
  const std::size_t n = X.rows(), d = X.cols();
  if (k == 0) throw UsageError("neighbours: k must be >= 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} words", k, n));
  Table t;
  t.E = Matrix::borrow(X.data(), n, d, X.dtype());
  const search::Searcher searcher(t, threads);
  search::SearchOptions o;
  o.k = k + 1;  // the word itself is (almost always) its own nearest: one more, then dropped
  o.metric = search::Metric::cosine;
  o.threads = threads;
  NeighbourLists nb;
  nb.n = n;
  nb.k = k;
  nb.ids.resize(n * k);
  nb.cosine.resize(n * k);
  for (std::size_t begin = 0; begin < n; begin += kBatch) {
    const std::size_t rows = std::min(kBatch, n - begin);
    Matrix Q(rows, d);
    for (std::size_t r = 0; r < rows; ++r) X.row_f32(begin + r, Q.row_mut(r).data());
    const auto found = searcher.search_batch(Q, o);
    for (std::size_t r = 0; r < rows; ++r) {
      const auto self = static_cast<Id>(begin + r);
      std::size_t out = 0;
      for (const auto& f : found[r]) {
        if (f.id == self || out == k) continue;  // itself (or, when a duplicate row outranks it, the last)
        nb.ids[(begin + r) * k + out] = static_cast<std::int32_t>(f.id);
        nb.cosine[(begin + r) * k + out] = f.score;
        ++out;
      }
    }
    if (progress) progress(begin + rows, n);
  }
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
