#include "lumen/project/anisotropy.hpp"

#include <algorithm>
#include <cmath>

#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/project/pca.hpp"

namespace lumen::project {

namespace {

// The rows that can take part, and their norms: finite and not all zero.
void usable_rows(const Matrix& E, std::size_t threads, std::vector<Id>& rows, std::vector<double>& norms) {
  const std::size_t V = E.rows(), d = E.cols();
  std::vector<double> norm(V, 0.0);
  parallel_for(V, threads, [&](std::size_t lo, std::size_t hi, std::size_t) {
    std::vector<float> x(d);
    for (std::size_t r = lo; r < hi; ++r) {
      if (!E.row_finite(r)) continue;
      E.row_f32(r, x.data());
      double n2 = 0;
      for (float v : x) n2 += double(v) * v;
      norm[r] = std::sqrt(n2);
    }
  });
  for (std::size_t r = 0; r < V; ++r)
    if (norm[r] > 0) {
      rows.push_back(static_cast<Id>(r));
      norms.push_back(norm[r]);
    }
}

}  // namespace

Anisotropy anisotropy(const Matrix& E, const AnisotropyOptions& o) {
  const std::size_t threads = o.threads ? o.threads : default_threads();
  std::vector<Id> rows;
  std::vector<double> norms;
  usable_rows(E, threads, rows, norms);
  const std::size_t n = rows.size(), d = E.cols();
  Anisotropy a;
  a.rows = n;
  if (n < 2) return a;
  // The pairs, as indices into `rows`: every pair when there are few, else a sample of distinct-row pairs.
  std::vector<std::array<std::size_t, 2>> pairs;
  const std::size_t all = n * (n - 1) / 2;
  Rng rng(o.seed);
  if (all <= std::max<std::size_t>(o.pairs, 1)) {
    a.all_pairs = true;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) pairs.push_back({i, j});
  } else {
    pairs.reserve(o.pairs);
    while (pairs.size() < o.pairs) {
      const std::size_t i = rng.below(n), j = rng.below(n);
      if (i != j) pairs.push_back({i, j});
    }
  }
  std::vector<double> cosines(pairs.size());
  parallel_for(pairs.size(), threads, [&](std::size_t lo, std::size_t hi, std::size_t) {
    std::vector<float> x(d), y(d);
    for (std::size_t p = lo; p < hi; ++p) {
      const auto [i, j] = pairs[p];
      E.row_f32(static_cast<std::size_t>(rows[i]), x.data());
      E.row_f32(static_cast<std::size_t>(rows[j]), y.data());
      double xy = 0;
      for (std::size_t c = 0; c < d; ++c) xy += double(x[c]) * y[c];
      cosines[p] = xy / (norms[i] * norms[j]);
    }
  });
  // In pair order, so the sums do not depend on the thread count.
  double sum = 0;
  for (double c : cosines) sum += c;
  a.pairs = pairs.size();
  a.mean_cosine = sum / static_cast<double>(a.pairs);
  double ss = 0;
  for (double c : cosines) ss += (c - a.mean_cosine) * (c - a.mean_cosine);
  a.std_cosine = std::sqrt(ss / static_cast<double>(a.pairs));
  if (o.keep_pairs)
    for (const auto& [i, j] : pairs) a.pair_ids.push_back({rows[i], rows[j]});
  // The top direction, on at most max_rows of the usable rows (a partial Fisher-Yates shuffle picks them).
  std::vector<Id> fit = rows;
  if (n > o.max_rows && o.max_rows >= 2) {
    for (std::size_t i = 0; i < o.max_rows; ++i) std::swap(fit[i], fit[i + rng.below(n - i)]);
    fit.resize(o.max_rows);
    std::sort(fit.begin(), fit.end());
  }
  a.pca_rows = fit.size();
  const Pca pca = fit_pca(E, fit, 1, threads);
  a.top_direction = pca.total_variance > 0 ? pca.variance_ratio.at(0) : 0.0;
  return a;
}

double baseline_adjusted(double cosine, double baseline) {
  return baseline < 1 ? (cosine - baseline) / (1 - baseline) : 0.0;
}

}  // namespace lumen::project
