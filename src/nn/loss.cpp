#include "lumen/nn/loss.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"

namespace lumen::nn {

namespace {

template <class Target>
std::size_t check_loss_shapes(std::span<const float> logits, std::span<const Target> targets, std::size_t V) {
  const std::size_t N = targets.size();
  if (V == 0) throw UsageError("cross-entropy needs V > 0");
  if (logits.size() != N * V)
    throw UsageError(fmt::format("logits hold {} floats, expected N*V = {}*{}", logits.size(), N, V));
  for (std::size_t n = 0; n < N; ++n)
    if (targets[n] < 0 || static_cast<std::size_t>(targets[n]) >= V)
      throw IdError(static_cast<Id>(targets[n]), n, static_cast<Id>(V));
  return N;
}

void check_span(std::size_t got, std::size_t want, const char* what) {
  if (got != want) throw UsageError(fmt::format("{} holds {} floats, expected {}", what, got, want));
}

// One row's -log p[target], from the row maximum m and the normaliser sum (>= 1: the maximum contributes exp(0)).
float row_loss(double sum, float m, float z_target) {
  return static_cast<float>(std::log(std::max(sum, 1.0)) + m - z_target);
}

// d (V) = (softmax(z) - onehot(target)) * dloss; d may be z. Returns the row's loss, from the same exps.
float row_backward(const float* z, std::size_t target, std::size_t V, float* d, float dloss) {
  const float m = *std::max_element(z, z + V);
  const float z_target = z[target];  // read before d (possibly z) is written
  double sum = 0;
  for (std::size_t v = 0; v < V; ++v) {
    d[v] = std::exp(z[v] - m);
    sum += d[v];
  }
  const auto scale = static_cast<float>(dloss / sum);
  for (std::size_t v = 0; v < V; ++v) d[v] *= scale;
  d[target] -= dloss;
  return row_loss(sum, m, z_target);
}

double mean_of(std::span<const float> losses) {
  double total = 0;  // row order: the same for every thread count
  for (float l : losses) total += l;
  return losses.empty() ? 0.0 : total / static_cast<double>(losses.size());
}

template <class Target>
double forward_impl(std::span<const float> logits, std::span<const Target> targets, std::size_t V, std::size_t threads,
                    std::span<float> losses) {
  const std::size_t N = check_loss_shapes(logits, targets, V);
  std::vector<float> own;
  if (losses.empty() && N > 0) {
    own.resize(N);
    losses = own;
  }
  check_span(losses.size(), N, "losses");
  parallel_for(N, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t n = begin; n < end; ++n) {
      const float* z = logits.data() + n * V;  // (V)
      const float m = *std::max_element(z, z + V);
      double sum = 0;
      for (std::size_t v = 0; v < V; ++v) sum += std::exp(z[v] - m);
      losses[n] = row_loss(sum, m, z[static_cast<std::size_t>(targets[n])]);
    }
  });
  return mean_of(losses);
}

template <class Target>
void backward_impl(std::span<const float> logits, std::span<const Target> targets, std::size_t V,
                   std::span<float> dlogits, float dloss, std::size_t threads, float* losses) {
  const std::size_t N = check_loss_shapes(logits, targets, V);
  check_span(dlogits.size(), logits.size(), "dlogits");
  parallel_for(N, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t n = begin; n < end; ++n) {
      const float loss =
          row_backward(logits.data() + n * V, static_cast<std::size_t>(targets[n]), V, dlogits.data() + n * V, dloss);
      if (losses != nullptr) losses[n] = loss;
    }
  });
}

template <class Target>
double fused_impl(std::span<const float> logits, std::span<const Target> targets, std::size_t V,
                  std::span<float> dlogits, std::size_t threads) {
  std::vector<float> losses(targets.size());
  backward_impl(logits, targets, V, dlogits, 1.0f / static_cast<float>(targets.size()), threads, losses.data());
  return mean_of(losses);
}

}  // namespace

double cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V, std::size_t threads,
                     std::span<float> losses) {
  return forward_impl(logits, targets, V, threads, losses);
}
double cross_entropy(std::span<const float> logits, std::span<const std::int32_t> targets, std::size_t V,
                     std::size_t threads, std::span<float> losses) {
  return forward_impl(logits, targets, V, threads, losses);
}

void cross_entropy_backward(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                            std::span<float> dlogits, float dloss, std::size_t threads) {
  backward_impl(logits, targets, V, dlogits, dloss, threads, nullptr);
}
void cross_entropy_backward(std::span<const float> logits, std::span<const std::int32_t> targets, std::size_t V,
                            std::span<float> dlogits, float dloss, std::size_t threads) {
  backward_impl(logits, targets, V, dlogits, dloss, threads, nullptr);
}

double softmax_cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                             std::span<float> dlogits, std::size_t threads) {
  return fused_impl(logits, targets, V, dlogits, threads);
}
double softmax_cross_entropy(std::span<const float> logits, std::span<const std::int32_t> targets, std::size_t V,
                             std::span<float> dlogits, std::size_t threads) {
  return fused_impl(logits, targets, V, dlogits, threads);
}

}  // namespace lumen::nn
