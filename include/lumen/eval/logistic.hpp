#pragma once
// Multinomial logistic regression with an L2 penalty, the probe's classifier: minimises
//   C Σ_i −log softmax(W x_i + b)_{y_i} + ½ ‖W‖²_F     (the intercept b is not penalised)
// as scikit-learn's LogisticRegression(multi_class="multinomial", C=C) does, by L-BFGS. The objective is convex,
// so the optimum (and the predictions) do not depend on the solver.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lumen::eval {

struct LogisticOptions {
  double C = 1.0;               // inverse regularisation strength
  std::size_t max_iter = 1000;  // L-BFGS iterations
  double tol = 1e-4;            // stop when the largest gradient entry of the mean objective falls below this
                                // (scikit-learn's default tol, which it passes to L-BFGS-B as gtol)
  std::size_t threads = 0;      // the probe: 2 or more runs the probe and control chains concurrently (0: the
                                // default); a fit itself runs on one thread
};

struct LogisticModel {
  std::size_t K = 0, d = 0;
  std::vector<double> W;  // (K, d)
  std::vector<double> b;  // (K)
  std::size_t iterations = 0;
  bool converged = false;
  // The most probable class of each row of X (n, d); ties go to the lower class.
  std::vector<int> predict(const double* X, std::size_t n) const;
  std::vector<int> predict(const float* X, std::size_t n) const;
};

// X (n, d) row-major, y (n) in [0, K). `start` (optional): a model of the same shape to start from (a warm start
// changes the path, not the optimum). UsageError for C <= 0 or K < 2; InputError for a label outside [0, K).
LogisticModel fit_logistic(const double* X, const int* y, std::size_t n, std::size_t d, std::size_t K,
                           const LogisticOptions& options, const LogisticModel* start = nullptr);
// The same on float rows (a table's own precision): the same numbers, half the memory traffic.
LogisticModel fit_logistic(const float* X, const int* y, std::size_t n, std::size_t d, std::size_t K,
                           const LogisticOptions& options, const LogisticModel* start = nullptr);

}  // namespace lumen::eval
