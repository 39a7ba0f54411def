#pragma once
// One training pass of a GPT-2-shaped model (LayerNorm, learned positions, GELU, attention with grouped-query
// heads, biases) on a batch of B sequences of T tokens, as llm.c's gpt2_forward / gpt2_backward: the forward keeps
// every activation the backward needs, the backward accumulates the gradient of the mean cross-entropy into a
// Weights of the same shapes. Tied (w.lm_head empty): the head's gradient adds into grads.wte.
#include <cstdint>
#include <vector>

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
std::vector<std::vector<float>*> tensors(Weights& w);
std::vector<const std::vector<float>*> tensors(const Weights& w);

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
  // Per layer l, (B*T, .) each: the residual stream into the block, the first norm (and its mean, rstd), qkv,
  // att (B,NH,T,T), the attention output before its projection, the stream after the attention's add, the second
  // norm, the MLP's hidden layer before and after GELU.
  struct Layer {
    std::vector<float> res, ln1, ln1_mean, ln1_rstd, qkv, att, atty, res2, ln2, ln2_mean, ln2_rstd, fch, fch_gelu;
  };
  std::vector<Layer> layers_;
  std::vector<float> res_final_, lnf_, lnf_mean_, lnf_rstd_, logits_, losses_;
  // Gradient scratch: the residual stream, a norm's output, qkv, the attention output, the MLP hidden layer (x2).
  std::vector<float> dres_, dln_, dqkv_, datty_, dtmp_, dfch_, dfch_gelu_;
};

}  // namespace lumen::model
