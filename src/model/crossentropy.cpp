// The loss of next-token prediction: softmax over the head's logits, -log of the target's probability; and its
// fused backward, softmax - onehot, which never forms the (V,V) Jacobian of the softmax.
#include <algorithm>
#include <cmath>

#include "lumen/core/threads.hpp"
#include "lumen/model/ops.hpp"

namespace lumen::model {

double crossentropy_forward(float* losses, const float* logits, const std::int32_t* targets, std::size_t BT,
                            std::size_t V) {
  parallel_for(BT, default_threads(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) {
      const float* x = logits + i * V;  // (V)
      const float mx = *std::max_element(x, x + V);
      double sum = 0;
      for (std::size_t v = 0; v < V; ++v) sum += std::exp(x[v] - mx);
      // sum >= 1: the largest logit contributes exp(0).
      losses[i] = static_cast<float>(std::log(std::max(sum, 1.0)) + mx - x[static_cast<std::size_t>(targets[i])]);
    }
  });
  double total = 0;
  for (std::size_t i = 0; i < BT; ++i) total += losses[i];
  return BT == 0 ? 0.0 : total / static_cast<double>(BT);
}

void crossentropy_softmax_backward(float* dlogits, const float* logits, const std::int32_t* targets, std::size_t BT,
                                   std::size_t V, float dloss) {
  parallel_for(BT, default_threads(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) {
      const float* x = logits + i * V;  // (V)
      float* d = dlogits + i * V;
      const float mx = *std::max_element(x, x + V);
      double sum = 0;
      for (std::size_t v = 0; v < V; ++v) {  // in place: x[v] is read before d[v] is written
        d[v] = std::exp(x[v] - mx);
        sum += d[v];
      }
      const auto scale = static_cast<float>(dloss / sum);
      for (std::size_t v = 0; v < V; ++v) d[v] *= scale;
      d[static_cast<std::size_t>(targets[i])] -= dloss;
    }
  });
}

}  // namespace lumen::model
