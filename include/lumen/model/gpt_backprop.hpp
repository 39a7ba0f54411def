#pragma once
// One training pass of a GPT-2-shaped model (LayerNorm, learned positions, GELU, attention with grouped-query
// heads, biases) on a batch of B sequences of T tokens, as llm.c's gpt2_forward / gpt2_backward: the forward keeps
// every activation the backward needs, the backward accumulates the gradient of the mean cross-entropy into a
// Weights of the same shapes. Tied (w.lm_head empty): the head's gradient adds into grads.wte.
#include <cstdint>
#include <vector>

#include "lumen/model/block.hpp"
#include "lumen/model/weights.hpp"
#include "lumen/nn/params.hpp"

namespace lumen::model {

// Throws InputError naming what is not GPT-2's shape (RMSNorm, RoPE, SwiGLU, no biases): training supports
// GPT-2's architecture only.
void check_trainable(const nn::ModelShape& shape);

// A Weights of the same shapes as `w`, all zero.
Weights zeros_like(const Weights& w);
void set_zero(Weights& w);
// Every tensor of w in a fixed order (wte, wpe, per block norm1_w .. proj_b, normf_w, normf_b, lm_head if any).
std::vector<Param*> tensors(Weights& w);
std::vector<const Param*> tensors(const Weights& w);

class GptBackprop {
 public:
  // Activations for batches of B x T (T <= shape.context). Throws as check_trainable.
  GptBackprop(const nn::ModelShape& shape, std::size_t B, std::size_t T);

  // inputs, targets (B,T) ids in [0, V) (the caller checks). Returns the mean loss over the B*T positions and
  // keeps the activations for backward.
  double forward(const Weights& w, const std::int32_t* inputs, const std::int32_t* targets, std::size_t threads = 0);
  // grads += d(mean loss)/d(w) for the batch of the last forward (same inputs and targets).
  void backward(const Weights& w, Weights& grads, const std::int32_t* inputs, const std::int32_t* targets,
                std::size_t threads = 0);

  std::size_t B() const { return B_; }
  std::size_t T() const { return T_; }
  // Per-position losses (B*T) of the last forward.
  const std::vector<float>& losses() const { return losses_; }

 private:
  nn::ModelShape s_;
  std::size_t B_, T_;
  // res_[l] (B*T,C): the residual stream into block l; res_[N] the stream into the final norm.
  std::vector<std::vector<float>> res_;
  std::vector<BlockActivations> layers_;
  std::vector<float> lnf_, lnf_mean_, lnf_rstd_, logits_, losses_;
  std::vector<float> dres_, dln_;  // the residual stream's gradient, the final norm's output gradient
  BlockGradScratch scratch_;
};

}  // namespace lumen::model
