#include "lumen/io/summary.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

#include "lumen/core/threads.hpp"

namespace lumen::io {

Summary summarize(const Matrix& E, std::size_t threads, std::size_t max_named) {
  Summary s;
  const std::size_t V = E.rows(), d = E.cols();
  std::vector<double> norms(V, -1.0);  // -1: row has NaN/Inf
  std::mutex mu;
  parallel_for(V, threads != 0 ? threads : default_threads(), [&](std::size_t lo, std::size_t hi, std::size_t) {
    std::vector<float> row(d);
    std::size_t nan = 0, inf = 0;
    for (std::size_t r = lo; r < hi; ++r) {
      E.row_f32(r, row.data());
      double sum = 0;
      bool finite = true;
      for (float v : row) {
        if (std::isnan(v)) ++nan, finite = false;
        else if (std::isinf(v)) ++inf, finite = false;
        else sum += static_cast<double>(v) * v;
      }
      if (finite) norms[r] = std::sqrt(sum);
    }
    std::lock_guard lock(mu);
    s.nan += nan;
    s.inf += inf;
  });
  std::vector<double> finite;
  finite.reserve(V);
  for (std::size_t r = 0; r < V; ++r) {
    if (norms[r] >= 0) {
      finite.push_back(norms[r]);
    } else {
      ++s.nonfinite_rows;
      if (s.nonfinite_ids.size() < max_named) s.nonfinite_ids.push_back(r);
    }
  }
  s.zero_rows = static_cast<std::size_t>(std::count(finite.begin(), finite.end(), 0.0));
  if (!finite.empty()) {
    const auto [mn, mx] = std::minmax_element(finite.begin(), finite.end());
    s.norm_min = *mn;
    s.norm_max = *mx;
    const std::size_t m = finite.size() / 2;
    std::nth_element(finite.begin(), finite.begin() + static_cast<std::ptrdiff_t>(m), finite.end());
    s.norm_median = finite[m];
    if (finite.size() % 2 == 0) {
      const double lower = *std::max_element(finite.begin(), finite.begin() + static_cast<std::ptrdiff_t>(m));
      s.norm_median = (s.norm_median + lower) / 2;
    }
  }
  return s;
}

}  // namespace lumen::io
