#include "lumen/project/affinities.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"

namespace lumen::project {

std::vector<float> conditional_affinities(const Neighbours& nb, double perplexity, std::size_t threads) {
  const std::size_t n = nb.n, k = nb.k;
  if (!(perplexity > 0)) throw UsageError(fmt::format("perplexity must be positive (got {})", perplexity));
  if (perplexity > static_cast<double>(k))
    throw UsageError(fmt::format("perplexity {} needs more than {} neighbours per point", perplexity, k));
  const double target = std::log(perplexity);  // the entropy H (nats) the Gaussian must have
  std::vector<float> P(n * k);
  parallel_for(n, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    std::vector<double> p(k);
    for (std::size_t i = b; i < e; ++i) {
      const float* d = nb.row_dist2(i);
      // Distances relative to the nearest: the same P, and exp() cannot underflow to all zeros.
      const double d0 = d[0];
      double beta = 1.0, lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
      for (int step = 0; step < 200; ++step) {
        double sum = 0.0, wsum = 0.0;
        for (std::size_t j = 0; j < k; ++j) {
          p[j] = std::exp(-(d[j] - d0) * beta);
          sum += p[j];
        }
        for (std::size_t j = 0; j < k; ++j) wsum += (d[j] - d0) * p[j];
        const double H = std::log(sum) + beta * wsum / sum;
        const double diff = H - target;
        if (std::fabs(diff) <= 1e-5) break;
        if (diff > 0) {  // too flat: sharpen
          lo = beta;
          beta = std::isinf(hi) ? beta * 2 : (beta + hi) / 2;
        } else {
          hi = beta;
          beta = std::isinf(lo) ? beta / 2 : (beta + lo) / 2;
        }
      }
      double sum = 0.0;
      for (std::size_t j = 0; j < k; ++j) sum += p[j] = std::exp(-(d[j] - d0) * beta);
      for (std::size_t j = 0; j < k; ++j) P[i * k + j] = static_cast<float>(p[j] / sum);
    }
  });
  return P;
}

SparseP joint_affinities(const Neighbours& nb, const std::vector<float>& conditional) {
  const std::size_t n = nb.n, k = nb.k;
  if (conditional.size() != n * k) throw InputError("joint affinities: conditional P does not match the neighbours");
  // Every (i, j, p) lands in row i and row j; count, fill, then merge duplicates within each row.
  std::vector<std::size_t> count(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    count[i] += k;
    for (std::size_t j = 0; j < k; ++j) ++count[static_cast<std::size_t>(nb.row(i)[j])];
  }
  std::vector<std::size_t> start(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) start[i + 1] = start[i] + count[i];
  std::vector<std::pair<std::int32_t, float>> ent(start[n]);
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      const auto c = static_cast<std::size_t>(nb.row(i)[j]);
      const float v = conditional[i * k + j];
      ent[fill[i]++] = {static_cast<std::int32_t>(c), v};
      ent[fill[c]++] = {static_cast<std::int32_t>(i), v};
    }
  SparseP P;
  P.n = n;
  P.ptr.assign(n + 1, 0);
  P.col.reserve(ent.size());
  P.val.reserve(ent.size());
  const double norm = 1.0 / (2.0 * static_cast<double>(n));  // each conditional row sums to 1
  for (std::size_t i = 0; i < n; ++i) {
    auto b = ent.begin() + static_cast<std::ptrdiff_t>(start[i]),
         e = ent.begin() + static_cast<std::ptrdiff_t>(start[i + 1]);
    std::sort(b, e, [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto it = b; it != e;) {
      const std::int32_t c = it->first;
      double v = 0.0;
      for (; it != e && it->first == c; ++it) v += it->second;
      P.col.push_back(c);
      P.val.push_back(static_cast<float>(v * norm));
    }
    P.ptr[i + 1] = P.col.size();
  }
  return P;
}

}  // namespace lumen::project
