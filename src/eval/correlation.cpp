#include "lumen/eval/correlation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lumen::eval {

double pearson(std::span<const double> x, std::span<const double> y) {
  const std::size_t n = std::min(x.size(), y.size());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (n < 2) return nan;
  if (std::all_of(x.begin(), x.begin() + n, [&](double v) { return v == x[0]; }) ||
      std::all_of(y.begin(), y.begin() + n, [&](double v) { return v == y[0]; }))
    return nan;
  // Centre, scale each to unit length, then dot (scipy's order, which keeps r within [-1, 1] up to rounding).
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  const double nx = std::sqrt(sxx), ny = std::sqrt(syy);
  double r = 0;
  for (std::size_t i = 0; i < n; ++i) r += ((x[i] - mx) / nx) * ((y[i] - my) / ny);
  return std::clamp(r, -1.0, 1.0);
}

std::vector<double> average_ranks(std::span<const double> x) {
  const std::size_t n = x.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && x[order[j]] == x[order[i]]) ++j;
    const double r = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;  // mean of ranks i+1..j
    for (std::size_t k = i; k < j; ++k) ranks[order[k]] = r;
    i = j;
  }
  return ranks;
}

double spearman(std::span<const double> x, std::span<const double> y) {
  auto has_nan = [](std::span<const double> v) {
    return std::any_of(v.begin(), v.end(), [](double e) { return std::isnan(e); });
  };
  if (has_nan(x) || has_nan(y)) return std::numeric_limits<double>::quiet_NaN();  // scipy: nan_policy='propagate'
  const auto rx = average_ranks(x), ry = average_ranks(y);
  return pearson(rx, ry);
}

}  // namespace lumen::eval
