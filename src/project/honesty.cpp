#include "lumen/project/honesty.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"

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

double knn_preservation(const Neighbours& original, const std::vector<std::int32_t>& queries, const Neighbours& map,
                        std::size_t k) {
  if (k == 0 || k > original.k || k > map.k)
    throw UsageError(fmt::format("kNN preservation: k = {} but the neighbour lists hold {} and {}", k, original.k, map.k));
  if (map.n != queries.size()) throw InputError("kNN preservation: the map's neighbours are not laid out by query");
  if (queries.empty()) return 0.0;
  double sum = 0.0;
  for (std::size_t r = 0; r < queries.size(); ++r) {
    const auto i = static_cast<std::size_t>(queries[r]);
    if (i >= original.n) throw IdError(queries[r], r, static_cast<std::int64_t>(original.n));
    sum += static_cast<double>(overlap(original.row(i), map.row(r), k)) / static_cast<double>(k);
  }
  return sum / static_cast<double>(queries.size());
}

double knn_jaccard(const Neighbours& a, const Neighbours& b, std::size_t k) {
  if (k == 0 || k > a.k || k > b.k) throw UsageError(fmt::format("kNN Jaccard: k = {} but the lists hold {} and {}", k, a.k, b.k));
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
