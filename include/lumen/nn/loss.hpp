#pragma once
// Softmax cross-entropy over the vocabulary, fused with its backward pass (as in llm.c):
//   loss = mean over n of -log softmax(logits[n])[targets[n]]
//   dlogits[n] = (softmax(logits[n]) - onehot(targets[n])) / N
// Stable: the row maximum is subtracted before exp; the normaliser is summed in double.
#include <cstddef>
#include <span>

#include "lumen/core/vocab.hpp"

namespace lumen::nn {

// logits (N,V), targets (N) -> mean loss. Throws IdError for a target outside [0, V).
double cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                     std::size_t threads = 0);

// The same loss, and dlogits (N,V) written in the same pass. dlogits may be the logits buffer itself.
double softmax_cross_entropy(std::span<const float> logits, std::span<const Id> targets, std::size_t V,
                             std::span<float> dlogits, std::size_t threads = 0);

}  // namespace lumen::nn
