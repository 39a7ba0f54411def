#include "lumen/project/neighbours.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/search/nearest_others.hpp"
#include "project/topk_heap.hpp"

namespace lumen::project {

namespace {
void check_k(std::size_t n, std::size_t k) {
  if (k == 0) throw UsageError("neighbours: k must be at least 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} points", k, n));
  if (n > static_cast<std::size_t>(INT32_MAX)) throw InputError("neighbours: more than 2^31 points");
}
}  // namespace

Neighbours exact_neighbours(const Matrix& X, std::size_t k, std::size_t threads, const ProgressFn& progress) {
  const std::size_t n = X.rows();
  check_k(n, k);
  if (X.dtype() != DType::f32) throw UsageError("neighbours: rows must be f32");
  Neighbours nb;
  nb.n = n;
  nb.k = k;
  nb.ids.resize(n * k);
  nb.dist2.resize(n * k);
  search::nearest_others(
      X, nullptr, k, search::Metric::euclidean, threads,
      [&](std::size_t i, std::size_t j, const search::Neighbour& f) {
        nb.ids[i * k + j] = static_cast<std::int32_t>(f.id);
        nb.dist2[i * k + j] = f.score * f.score;
      },
      progress);
  return nb;
}

Neighbours map_neighbours(const std::vector<float>& Y, std::size_t n, const std::vector<std::int32_t>& queries,
                          std::size_t k, std::size_t threads) {
  check_k(n, k);
  if (Y.size() != 2 * n) throw InputError(fmt::format("map has {} coordinates for {} points", Y.size(), n));
  Neighbours nb;
  nb.n = queries.size();
  nb.k = k;
  nb.ids.resize(nb.n * k);
  nb.dist2.resize(nb.n * k);
  parallel_for(queries.size(), threads, [&](std::size_t b, std::size_t e, std::size_t) {
    detail::TopK top(k);
    for (std::size_t r = b; r < e; ++r) {
      const std::size_t i = static_cast<std::size_t>(queries[r]);
      if (i >= n) throw IdError(queries[r], r, static_cast<std::int64_t>(n));
      const float xi = Y[2 * i], yi = Y[2 * i + 1];
      for (std::size_t j = 0; j < n; ++j) {
        const float dx = Y[2 * j] - xi, dy = Y[2 * j + 1] - yi;
        const float dist = dx * dx + dy * dy;
        if (dist <= top.bound() && j != i) top.push(dist, static_cast<std::int32_t>(j));
      }
      top.drain(nb.ids.data() + r * k, nb.dist2.data() + r * k);
    }
  });
  return nb;
}

}  // namespace lumen::project
