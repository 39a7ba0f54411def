#include "lumen/nn/loss.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"

namespace lumen::nn {

namespace {

std::size_t check(std::span<const float> logits, std::span<const Id> targets, std::size_t V) {
  const std::size_t N = targets.size();
  if (V == 0) throw UsageError("cross-entropy needs V > 0");
  if (logits.size() != N * V)
    throw UsageError(fmt::format("logits hold {} floats, expected N*V = {}*{}", logits.size(), N, V));
  for (std::size_t n = 0; n < N; ++n)
    if (targets[n] < 0 || targets[n] >= static_cast<Id>(V)) throw IdError(targets[n], n, static_cast<Id>(V));
  return N;
}

// One row: returns -log p[target]; writes (p - onehot) * inv_n into d when d is given (d may alias z).
double row_loss(const float* z, Id target, std::size_t V, float* d, double inv_n) {
  const float m = *std::max_element(z, z + V);
  double sum = 0.0;
  for (std::size_t v = 0; v < V; ++v) sum += std::exp(static_cast<double>(z[v] - m));
  const double log_sum = std::log(sum);
  const double loss = log_sum - static_cast<double>(z[target] - m);
  if (d != nullptr) {
    for (std::size_t v = 0; v < V; ++v) {
      const double p = std::exp(static_cast<double>(z[v] - m) - log_sum);
      d[v] = static_cast<float>((p - (static_cast<Id>(v) == target ? 1.0 : 0.0)) * inv_n);
    }
  }
  return loss;
}

double run(std::span<const float> logits, std::span<const Id> targets, std::size_t V, float* dlogits,
           std::size_t threads) {
  const std::size_t N = check(logits, targets, V);
  if (N == 0) return 0.0;
  std::vector<double> losses(N);
  const double inv_n = 1.0 / static_cast<double>(N);
  parallel_for(N, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t n = b; n < e; ++n)
      losses[n] = row_loss(logits.data() + n * V, targets[n], V, dlogits ? dlogits + n * V : nullptr, inv_n);
  });
  double total = 0.0;  // summed in row order: the same for every thread count
  for (double l : losses) total += l;
  return total * inv_n;
}

}  // namespace

double cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V, std::size_t threads) {
  return run(logits, targets, V, nullptr, threads);
}

double softmax_cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                             std::span<float> dlogits, std::size_t threads) {
  if (dlogits.size() != logits.size())
    throw UsageError(fmt::format("dlogits holds {} floats, expected {}", dlogits.size(), logits.size()));
  return run(logits, targets, V, dlogits.data(), threads);
}

}  // namespace lumen::nn
