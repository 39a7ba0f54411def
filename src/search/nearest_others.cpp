#include "lumen/search/nearest_others.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::search {

void nearest_others(const Matrix& X, const std::vector<std::int32_t>* queries, std::size_t k, Metric metric,
                    std::size_t threads, const std::function<void(std::size_t, std::size_t, const Neighbour&)>& keep,
                    const ProgressFn& progress) {
  const std::size_t n = X.rows(), d = X.cols();
  if (k == 0) throw UsageError("neighbours: k must be at least 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} rows", k, n));
  const std::size_t total = queries ? queries->size() : n;
  auto row_of = [&](std::size_t q) -> std::size_t {
    if (!queries) return q;
    const std::int32_t r = (*queries)[q];
    if (r < 0 || static_cast<std::size_t>(r) >= n) throw IdError(r, q, static_cast<std::int64_t>(n));
    return static_cast<std::size_t>(r);
  };
  Table t;  // lumen's exact search over a borrowed view of X
  t.E = Matrix::borrow(X.data(), n, d, X.dtype());
  const Searcher searcher(t, threads);
  SearchOptions o;
  o.k = k + 1;
  o.metric = metric;
  o.threads = threads;
  constexpr std::size_t kBatch = 1024;  // queries per batch: progress between them
  for (std::size_t q0 = 0; q0 < total; q0 += kBatch) {
    const std::size_t q1 = std::min(total, q0 + kBatch);
    Matrix Q;
    if (!queries && X.dtype() == DType::f32) {
      Q = Matrix::borrow(X.row_ptr(q0), q1 - q0, d, DType::f32);
    } else {
      Q = Matrix(q1 - q0, d);
      for (std::size_t q = q0; q < q1; ++q) X.row_f32(row_of(q), Q.row_mut(q - q0).data());
    }
    const auto found = searcher.search_batch(Q, o);
    for (std::size_t q = q0; q < q1; ++q) {
      const auto self = static_cast<Id>(row_of(q));
      std::size_t out = 0;
      for (const auto& f : found[q - q0]) {
        if (f.id == self || out == k) continue;  // itself (or, tied with it, the last)
        keep(q, out++, f);
      }
      if (out != k)
        throw Error(fmt::format("neighbours: the search returned {} of {} neighbours for query {}", out, k, q));
    }
    if (progress) progress("neighbours", q1, total);
  }
}

}  // namespace lumen::search
