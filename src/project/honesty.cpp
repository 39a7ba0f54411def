#include "lumen/project/honesty.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/search/nearest_others.hpp"

namespace lumen::project {

namespace {
// |A ∩ B| for two id lists of length k (small k: sort copies and merge).
std::size_t overlap(const std::int32_t* a, const std::int32_t* b, std::size_t k) {
  std::vector<std::int32_t> x(a, a + k), y(b, b + k);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  std::vector<std::int32_t> both;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(both));
  return both.size();
}
}  // namespace

double knn_preservation(const Neighbours& original, const Neighbours& map, std::size_t k) {
  if (k == 0 || k > original.k || k > map.k)
    throw UsageError(
        fmt::format("kNN preservation: k = {} but the neighbour lists hold {} and {}", k, original.k, map.k));
  if (map.n != original.n) throw InputError(fmt::format("kNN preservation: {} and {} queries", original.n, map.n));
  if (map.n == 0) return 0.0;
  double sum = 0.0;
  for (std::size_t r = 0; r < map.n; ++r)
    sum += static_cast<double>(overlap(original.row(r), map.row(r), k)) / static_cast<double>(k);
  return sum / static_cast<double>(map.n);
}

Neighbours select_rows(const Neighbours& nb, const std::vector<std::int32_t>& queries) {
  Neighbours out;
  out.n = queries.size();
  out.k = nb.k;
  out.ids.reserve(out.n * out.k);
  out.dist2.reserve(out.n * out.k);
  for (std::size_t r = 0; r < queries.size(); ++r) {
    const auto i = static_cast<std::size_t>(queries[r]);
    if (queries[r] < 0 || i >= nb.n) throw IdError(queries[r], r, static_cast<std::int64_t>(nb.n));
    out.ids.insert(out.ids.end(), nb.row(i), nb.row(i) + nb.k);
    out.dist2.insert(out.dist2.end(), nb.row_dist2(i), nb.row_dist2(i) + nb.k);
  }
  return out;
}

Neighbours query_neighbours(const Matrix& X, const std::vector<std::int32_t>& queries, std::size_t k, bool cosine,
                            std::size_t threads) {
  if (X.dtype() != DType::f32) throw UsageError("neighbours: rows must be f32");
  Neighbours nb;
  nb.n = queries.size();
  nb.k = k;
  nb.ids.resize(nb.n * k);
  nb.dist2.resize(nb.n * k);
  search::nearest_others(X, &queries, k, cosine ? search::Metric::cosine : search::Metric::euclidean, threads,
                         [&](std::size_t r, std::size_t j, const search::Neighbour& f) {
                           nb.ids[r * k + j] = static_cast<std::int32_t>(f.id);
                           nb.dist2[r * k + j] = cosine ? 2.0f - 2.0f * f.score : f.score * f.score;
                         });
  return nb;
}

double knn_jaccard(const Neighbours& a, const Neighbours& b, std::size_t k) {
  if (k == 0 || k > a.k || k > b.k)
    throw UsageError(fmt::format("kNN Jaccard: k = {} but the lists hold {} and {}", k, a.k, b.k));
  if (a.n != b.n) throw InputError(fmt::format("kNN Jaccard: {} and {} points", a.n, b.n));
  if (a.n == 0) return 0.0;
  double sum = 0.0;
  for (std::size_t r = 0; r < a.n; ++r) {
    const std::size_t inter = overlap(a.row(r), b.row(r), k);
    sum += static_cast<double>(inter) / static_cast<double>(2 * k - inter);
  }
  return sum / static_cast<double>(a.n);
}

std::vector<std::int32_t> sample_points(std::size_t n, std::size_t max, std::uint64_t seed) {
  std::vector<std::int32_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  if (n <= max) return all;
  // A partial Fisher-Yates shuffle, then sorted so that the output reads in table order.
  Rng rng(seed);
  for (std::size_t i = 0; i < max; ++i) std::swap(all[i], all[i + rng.below(n - i)]);
  all.resize(max);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace lumen::project
