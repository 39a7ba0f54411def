#include "lumen/eval/logistic.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fmt/format.h>
#include <type_traits>

#include "logistic_kernels.hpp"
#include "lumen/core/error.hpp"

namespace lumen::eval {

namespace {

constexpr std::size_t kHistory = 10;  // L-BFGS correction pairs

// The mean objective f(θ) = (1/n) [Σ CE + ‖W‖² / (2C)] (the same minimiser as C Σ CE + ½‖W‖², better scaled),
// with θ = [W (K,d) row-major, b (K)]; returns f and writes its gradient. One fused pass over the rows
// (logistic_kernels): each row's logits, softmax and share of the gradient while it is in L1, with float rows
// widened in registers. (Two BLAS products per block with K = 4 spent most of their time packing.)
template <typename T>
class Objective {
 public:
  Objective(const T* X, const int* y, std::size_t n, std::size_t d, std::size_t K, double C)
      : X_(X),
        y_(y),
        n_(n),
        d_(d),
        K_(K),
        C_(C),
        kernels_(logistic_kernels::active()),
        z_(logistic_kernels::kScratchRows * K) {}

  double operator()(const std::vector<double>& theta, std::vector<double>& grad) {
    const double* W = theta.data();
    const double* b = theta.data() + K_ * d_;
    const double inv_n = 1.0 / static_cast<double>(n_);
    grad.assign(theta.size(), 0.0);
    double* gb = grad.data() + K_ * d_;
    double loss = 0.0;
    if constexpr (std::is_same_v<T, double>)
      loss = kernels_.rows_f64(X_, y_, n_, d_, K_, W, b, z_.data(), grad.data(), gb);
    else loss = kernels_.rows_f32(X_, y_, n_, d_, K_, W, b, z_.data(), grad.data(), gb);
    // ∇W = (P − Y)ᵀ X / n + W / (C n); ∇b = Σ_i (P − Y)_i / n (the intercept is not penalised).
    double penalty = 0.0;
    const double reg = inv_n / C_;
    for (std::size_t j = 0; j < K_ * d_; ++j) {
      penalty += W[j] * W[j];
      grad[j] = inv_n * grad[j] + reg * W[j];
    }
    for (std::size_t k = 0; k < K_; ++k) gb[k] *= inv_n;
    return inv_n * loss + 0.5 * reg * penalty;
  }

 private:
  const T* X_;
  const int* y_;
  std::size_t n_, d_, K_;
  double C_;
  const logistic_kernels::Table& kernels_;
  std::vector<double> z_;  // the kernels' scratch: a block of rows' logits
};

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

double max_abs(const std::vector<double>& a) {
  double m = 0.0;
  for (const double v : a) m = std::max(m, std::abs(v));
  return m;
}

template <typename T>
std::vector<int> predict_rows(const LogisticModel& m, const T* X, std::size_t n) {
  const std::size_t K = m.K, d = m.d;
  const std::vector<double>& W = m.W;
  const std::vector<double>& b = m.b;
  std::vector<int> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    int best = 0;
    double best_z = -INFINITY;
    for (std::size_t k = 0; k < K; ++k) {
      double z = b[k];
      for (std::size_t j = 0; j < d; ++j) z += W[k * d + j] * X[i * d + j];
      if (z > best_z) best_z = z, best = static_cast<int>(k);
    }
    out[i] = best;
  }
  return out;
}

template <typename T>
LogisticModel fit(const T* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const LogisticOptions& options,
                  const LogisticModel* start) {
  if (!(options.C > 0.0)) throw UsageError(fmt::format("logistic regression: C must be > 0, got {}", options.C));
  if (K < 2) throw UsageError("logistic regression needs at least two classes");
  if (n == 0 || d == 0) throw InputError("logistic regression: no training rows");
  for (std::size_t i = 0; i < n; ++i)
    if (y[i] < 0 || static_cast<std::size_t>(y[i]) >= K)
      throw InputError(fmt::format("logistic regression: label {} of row {} is outside [0, {})", y[i], i, K));
  Objective<T> f(X, y, n, d, K, options.C);
  const std::size_t p = K * d + K;
  std::vector<double> theta(p, 0.0), grad, next(p), next_grad, dir(p);
  if (start && start->K == K && start->d == d) {
    std::copy(start->W.begin(), start->W.end(), theta.begin());
    std::copy(start->b.begin(), start->b.end(), theta.begin() + static_cast<std::ptrdiff_t>(K * d));
  }
  double fx = f(theta, grad);
  std::deque<std::vector<double>> S, Y;
  std::deque<double> rho;
  LogisticModel m;
  m.K = K;
  m.d = d;
  std::size_t it = 0;
  for (; it < options.max_iter; ++it) {
    if (max_abs(grad) < options.tol) {
      m.converged = true;
      break;
    }
    // Two-loop recursion: dir = −H ∇f.
    dir = grad;
    std::vector<double> alpha(S.size());
    for (std::size_t j = S.size(); j-- > 0;) {
      alpha[j] = rho[j] * dot(S[j], dir);
      for (std::size_t i = 0; i < p; ++i) dir[i] -= alpha[j] * Y[j][i];
    }
    const double gamma =
        S.empty() ? 1.0 / std::max(1.0, std::sqrt(dot(grad, grad))) : dot(S.back(), Y.back()) / dot(Y.back(), Y.back());
    for (auto& v : dir) v *= gamma;
    for (std::size_t j = 0; j < S.size(); ++j) {
      const double beta = rho[j] * dot(Y[j], dir);
      for (std::size_t i = 0; i < p; ++i) dir[i] += (alpha[j] - beta) * S[j][i];
    }
    for (auto& v : dir) v = -v;
    double slope = dot(grad, dir);
    if (slope >= 0) {  // not a descent direction (rounding): restart from steepest descent
      S.clear(), Y.clear(), rho.clear();
      for (std::size_t i = 0; i < p; ++i) dir[i] = -grad[i];
      slope = dot(grad, dir);
    }
    // Backtracking line search (Armijo).
    double step = 1.0, fnext = 0.0;
    bool accepted = false;
    for (int tries = 0; tries < 40; ++tries) {
      for (std::size_t i = 0; i < p; ++i) next[i] = theta[i] + step * dir[i];
      fnext = f(next, next_grad);
      if (fnext <= fx + 1e-4 * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) break;  // no decrease possible at double precision: as close as it gets
    std::vector<double> s(p), yv(p);
    for (std::size_t i = 0; i < p; ++i) s[i] = next[i] - theta[i], yv[i] = next_grad[i] - grad[i];
    const double sy = dot(s, yv);
    if (sy > 1e-12 * dot(yv, yv)) {  // keep the curvature pair only when it is positive
      S.push_back(std::move(s));
      Y.push_back(std::move(yv));
      rho.push_back(1.0 / sy);
      if (S.size() > kHistory) S.pop_front(), Y.pop_front(), rho.pop_front();
    }
    theta.swap(next);
    grad.swap(next_grad);
    fx = fnext;
  }
  if (!m.converged && max_abs(grad) < options.tol) m.converged = true;
  m.iterations = it;
  m.W.assign(theta.begin(), theta.begin() + static_cast<std::ptrdiff_t>(K * d));
  m.b.assign(theta.begin() + static_cast<std::ptrdiff_t>(K * d), theta.end());
  return m;
}

}  // namespace

std::vector<int> LogisticModel::predict(const double* X, std::size_t n) const { return predict_rows(*this, X, n); }
std::vector<int> LogisticModel::predict(const float* X, std::size_t n) const { return predict_rows(*this, X, n); }

LogisticModel fit_logistic(const double* X, const int* y, std::size_t n, std::size_t d, std::size_t K,
                           const LogisticOptions& options, const LogisticModel* start) {
  return fit(X, y, n, d, K, options, start);
}

LogisticModel fit_logistic(const float* X, const int* y, std::size_t n, std::size_t d, std::size_t K,
                           const LogisticOptions& options, const LogisticModel* start) {
  return fit(X, y, n, d, K, options, start);
}

}  // namespace lumen::eval
