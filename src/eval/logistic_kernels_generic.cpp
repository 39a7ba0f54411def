// The plain reference the SIMD variants are tested against (logistic_kernel_table.hpp states the contract).
#include <algorithm>
#include <cmath>

#include "logistic_kernel_table.hpp"

namespace lumen::eval::logistic_kernels {

namespace {

constexpr std::size_t kLanes = 16;

// W_k · x in the 16-lane order of every variant; missing tail lanes add nothing.
template <typename T>
double dot16(const double* w, const T* x, std::size_t d) {
  double acc[kLanes] = {};
  for (std::size_t i = 0; i < d; i += kLanes) {
    const std::size_t m = d - i < kLanes ? d - i : kLanes;
    for (std::size_t l = 0; l < m; ++l) acc[l] = acc[l] + w[i + l] * static_cast<double>(x[i + l]);
  }
  for (std::size_t width = 8; width >= 1; width /= 2)
    for (std::size_t l = 0; l < width; ++l) acc[l] = acc[l] + acc[l + width];
  return acc[0];
}

template <typename T>
double rows(const T* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W, const double* b,
            double* z, double* gW, double* gb) {
  double loss = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const T* x = X + i * d;
    const auto label = static_cast<std::size_t>(y[i]);
    double top = -INFINITY;
    for (std::size_t k = 0; k < K; ++k) {
      z[k] = dot16(W + k * d, x, d) + b[k];
      if (z[k] > top) top = z[k];
    }
    // Softmax with each exp taken once: z becomes exp(z − top), whose sum is >= 1 (the top term is exp(0)).
    const double zy = z[label];
    double sum = 0.0;
    for (std::size_t k = 0; k < K; ++k) {
      z[k] = std::exp(z[k] - top);
      sum = sum + z[k];
    }
    loss = loss + ((top + std::log(std::max(sum, 1.0))) - zy);  // (max: sum >= 1 already; says so to cppcheck)
    for (std::size_t k = 0; k < K; ++k) {
      const double a = z[k] / sum - (k == label ? 1.0 : 0.0);  // p_k − y_k
      gb[k] = gb[k] + a;
      double* g = gW + k * d;
      for (std::size_t j = 0; j < d; ++j) g[j] = g[j] + a * static_cast<double>(x[j]);
    }
  }
  return loss;
}

double rows_f64(const double* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W,
                const double* b, double* z, double* gW, double* gb) {
  return rows(X, y, n, d, K, W, b, z, gW, gb);
}

double rows_f32(const float* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W,
                const double* b, double* z, double* gW, double* gb) {
  return rows(X, y, n, d, K, W, b, z, gW, gb);
}

}  // namespace

const Table kGeneric = {rows_f64, rows_f32};

}  // namespace lumen::eval::logistic_kernels
