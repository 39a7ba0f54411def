#include "lumen/eval/logistic.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <fmt/format.h>
#include <type_traits>

#include "lumen/core/blas_threads.hpp"
#include "lumen/core/error.hpp"

namespace lumen::eval {

namespace {

constexpr std::size_t kHistory = 10;  // L-BFGS correction pairs

// Rows of X per block: about 192 kB of them, which a core's L2 holds between the two products of a block.
std::size_t block_rows(std::size_t d) { return std::clamp<std::size_t>((192u << 10) / (sizeof(double) * d), 16, 1024); }

// The mean objective f(θ) = (1/n) [Σ CE + ‖W‖² / (2C)] (the same minimiser as C Σ CE + ½‖W‖², better scaled),
// with θ = [W (K,d) row-major, b (K)]; returns f and writes its gradient. X may be float (a table's rows as they
// are): each block is widened to double before its products, which reads half the bytes from memory, the
// products' bound, and gives the same numbers (float to double is exact).
template <typename T>
class Objective {
 public:
  Objective(const T* X, const int* y, std::size_t n, std::size_t d, std::size_t K, double C)
      : X_(X), y_(y), n_(n), d_(d), K_(K), C_(C), block_(block_rows(d)), Z_(block_ * K) {}

  double operator()(const std::vector<double>& theta, std::vector<double>& grad) {
    const double* W = theta.data();
    const double* b = theta.data() + K_ * d_;
    const auto d = static_cast<int>(d_), K = static_cast<int>(K_);
    const double inv_n = 1.0 / static_cast<double>(n_);
    grad.assign(theta.size(), 0.0);
    double* gb = grad.data() + K_ * d_;
    double loss = 0.0;
    // One pass over X in blocks of rows small enough to stay in cache: the block's logits, then its share of the
    // gradient while it is still there (two whole-matrix products would read X from memory twice).
    for (std::size_t i0 = 0; i0 < n_; i0 += block_) {
      const std::size_t rows = std::min(block_, n_ - i0);
      const double* Xb = nullptr;
      if constexpr (std::is_same_v<T, double>) {
        Xb = X_ + i0 * d_;
      } else {
        Xd_.assign(X_ + i0 * d_, X_ + (i0 + rows) * d_);
        Xb = Xd_.data();
      }
      // Z (rows,K) = X Wᵀ, then + b, softmax in place, minus the one-hot targets: Z becomes P − Y.
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(rows), K, d, 1.0, Xb, d, W, d, 0.0,
                  Z_.data(), K);
      for (std::size_t r = 0; r < rows; ++r) {
        double* z = Z_.data() + r * K_;
        const auto y = static_cast<std::size_t>(y_[i0 + r]);
        double top = -INFINITY;
        for (std::size_t k = 0; k < K_; ++k) top = std::max(top, z[k] += b[k]);
        double sum = 0.0;
        for (std::size_t k = 0; k < K_; ++k) sum += std::exp(z[k] - top);
        const double log_sum = top + std::log(std::max(sum, 1.0));  // sum >= 1: the top term is exp(0)
        loss += log_sum - z[y];
        for (std::size_t k = 0; k < K_; ++k) z[k] = std::exp(z[k] - log_sum);
        z[y] -= 1.0;
        for (std::size_t k = 0; k < K_; ++k) gb[k] += inv_n * z[k];
      }
      // ∇W += (P − Y)ᵀ X / n over the block.
      cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, K, d, static_cast<int>(rows), inv_n, Z_.data(), K, Xb, d,
                  1.0, grad.data(), d);
    }
    // ∇W += W / (C n); ∇b = Σ_i (P − Y)_i / n (above).
    double penalty = 0.0;
    const double reg = inv_n / C_;
    for (std::size_t j = 0; j < K_ * d_; ++j) {
      penalty += W[j] * W[j];
      grad[j] += reg * W[j];
    }
    return inv_n * loss + 0.5 * reg * penalty;
  }

 private:
  const T* X_;
  const int* y_;
  std::size_t n_, d_, K_;
  double C_;
  std::size_t block_;
  std::vector<double> Z_;
  std::vector<double> Xd_;  // a float block widened to double (exactly)
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
  const ScopedBlasThreads blas(options.threads);
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
