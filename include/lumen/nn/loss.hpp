#pragma once
// Softmax cross-entropy over the vocabulary, the loss of next-token prediction for the MLP language model and the
// GPT alike:
//   loss[n]    = -log softmax(logits[n])[targets[n]]          (the mean over n is returned)
//   dlogits[n] = (softmax(logits[n]) - onehot(targets[n])) * dloss
// dloss is each row's share of the gradient: 1/N for the mean. The backward never forms the (V,V) Jacobian of the
// softmax. Stable: the row maximum is subtracted before exp. exp runs in f32 and the normaliser is summed in double
// (llm.c's choice: the exps are most of the cost at V = 50257); the mean sums the f32 row losses in row order, so
// it is the same at every thread count. Targets are Id (a table's words) or int32 (a model's tokens); each must be
// in [0, V), else IdError.
#include <cstddef>
#include <cstdint>
#include <span>

#include "lumen/core/vocab.hpp"

namespace lumen::nn {

// logits (N,V), targets (N) -> mean loss. losses (N), when given, receives each row's loss.
double cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V, std::size_t threads = 0,
                     std::span<float> losses = {});
double cross_entropy(std::span<const float> logits, std::span<const std::int32_t> targets, std::size_t V,
                     std::size_t threads = 0, std::span<float> losses = {});

// dlogits (N,V) = (softmax(logits) - onehot(targets)) * dloss; overwrites. dlogits may be the logits buffer itself.
void cross_entropy_backward(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                            std::span<float> dlogits, float dloss, std::size_t threads = 0);
void cross_entropy_backward(std::span<const float> logits, std::span<const std::int32_t> targets, std::size_t V,
                            std::span<float> dlogits, float dloss, std::size_t threads = 0);

// Both in one pass, dloss = 1/N: the loss is cross_entropy's and dlogits cross_entropy_backward's, bit for bit.
// dlogits may be the logits buffer itself.
double softmax_cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                             std::span<float> dlogits, std::size_t threads = 0);
double softmax_cross_entropy(std::span<const float> logits, std::span<const std::int32_t> targets, std::size_t V,
                             std::span<float> dlogits, std::size_t threads = 0);

}  // namespace lumen::nn
