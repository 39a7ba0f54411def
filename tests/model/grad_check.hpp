#pragma once
// Central finite differences for the gradient checks of the model's backward passes.
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/rng.hpp"

namespace lumen::test {

inline std::vector<float> randn(std::size_t n, std::uint64_t seed, double scale = 1.0) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(rng.normal() * scale);
  return v;
}

// d loss / d x[i] for every i by (loss(x + eps) - loss(x - eps)) / 2 eps; x is restored.
inline std::vector<double> numeric_grad(std::vector<float>& x, const std::function<double()>& loss, float eps = 1e-3f) {
  std::vector<double> g(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float keep = x[i];
    x[i] = keep + eps;
    const double up = loss();
    x[i] = keep - eps;
    const double down = loss();
    x[i] = keep;
    g[i] = (up - down) / (2.0 * static_cast<double>(eps));
  }
  return g;
}

// The relative error ||numeric - analytic|| / max(||numeric||, floor): small for a right gradient, O(0.1..1) for one
// missing a term.
inline double grad_error(const std::vector<double>& numeric, const float* analytic, double floor = 1e-3) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < numeric.size(); ++i) {
    diff += (numeric[i] - analytic[i]) * (numeric[i] - analytic[i]);
    norm += numeric[i] * numeric[i];
  }
  return std::sqrt(diff) / std::max(std::sqrt(norm), floor);
}

// sum(out * r) in double: a scalar loss whose gradient w.r.t. out is r.
inline double dot(const std::vector<float>& out, const std::vector<float>& r) {
  double s = 0;
  for (std::size_t i = 0; i < out.size(); ++i) s += static_cast<double>(out[i]) * r[i];
  return s;
}

}  // namespace lumen::test
