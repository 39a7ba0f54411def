// GPT-2's training pass: the input layer, the blocks (block.hpp, the loop inference shares), the final norm, the head
// and the loss; backward in reverse. The residual stream's gradient lives in one buffer, dres: a block computes
// r + f(r), so d r = d out + J_f^T d out, and each branch's backward adds its J_f^T d out into dres in place.
#include "lumen/model/gpt_backprop.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/nn/linear.hpp"
#include "lumen/nn/loss.hpp"

namespace lumen::model {

void check_trainable(const nn::ModelShape& s) {
  const auto fail = [](const std::string& what) {
    throw InputError(
        fmt::format("training supports GPT-2's architecture only (LayerNorm, learned positions, GELU, "
                    "biases); this model has {}",
                    what));
  };
  if (s.norm != nn::Norm::layernorm) fail("RMSNorm");
  if (s.positional != nn::Positional::learned) fail("no learned positional table (RoPE or none)");
  if (s.mlp != nn::Mlp::gelu) fail("a SwiGLU MLP");
  if (!s.biases) fail("no biases");
  if (s.heads == 0 || s.kv_heads == 0 || s.d % s.heads != 0 || s.heads % s.kv_heads != 0)
    fail(fmt::format("{} heads and {} key/value heads for d_model {}", s.heads, s.kv_heads, s.d));
}

namespace {

// The shape, once it is known to be trainable on batches of B x T (before any buffer is sized from it).
const nn::ModelShape& checked(const nn::ModelShape& s, std::size_t B, std::size_t T) {
  check_trainable(s);
  if (B == 0 || T == 0 || T > s.context)
    throw InputError(fmt::format("a batch of {} x {} tokens; need B >= 1 and 1 <= T <= context {}", B, T, s.context));
  return s;
}

}  // namespace

std::vector<Param*> tensors(Weights& w) {
  std::vector<Param*> t{&w.wte, &w.wpe};
  for (BlockWeights& b : w.blocks)
    for (auto* p : {&b.norm1_w, &b.norm1_b, &b.qkv_w, &b.qkv_b, &b.attn_proj_w, &b.attn_proj_b, &b.norm2_w, &b.norm2_b,
                    &b.fc_w, &b.fc_b, &b.proj_w, &b.proj_b})
      t.push_back(p);
  t.push_back(&w.normf_w);
  t.push_back(&w.normf_b);
  if (!w.lm_head.empty()) t.push_back(&w.lm_head);
  return t;
}

std::vector<const Param*> tensors(const Weights& w) {
  std::vector<const Param*> out;
  for (auto* p : tensors(const_cast<Weights&>(w))) out.push_back(p);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  return out;
}

Weights zeros_like(const Weights& w) {
  Weights z = w;
  set_zero(z);
  return z;
}

void set_zero(Weights& w) {
  for (auto* t : tensors(w)) t->assign(t->size(), 0.0f);
}

GptBackprop::GptBackprop(const nn::ModelShape& shape, std::size_t B, std::size_t T)
    : s_(checked(shape, B, T)),
      B_(B),
      T_(T),
      res_(shape.layers + 1, std::vector<float>(B * T * shape.d)),
      layers_(shape.layers, BlockActivations(shape, B, T, true)),
      scratch_(shape, B, T) {
  const std::size_t BT = B * T, C = s_.d;
  for (auto* v : {&lnf_, &dres_, &dln_}) v->resize(BT * C);
  for (auto* v : {&lnf_mean_, &lnf_rstd_, &losses_}) v->resize(BT);
  logits_.resize(BT * s_.V);
}

double GptBackprop::forward(const Weights& w, const std::int32_t* inputs, const std::int32_t* targets,
                            std::size_t threads) {
  const std::size_t B = B_, T = T_, BT = B * T, C = s_.d, V = s_.V;
  encoder_forward(res_[0].data(), inputs, w.wte.data(), w.wpe.data(), B, T, C);  // (B,T,C)
  for (std::size_t i = 0; i < s_.layers; ++i)
    block_forward(res_[i + 1].data(), res_[i].data(), w.blocks[i], s_, layers_[i], nullptr, nullptr, B, T, threads);
  norm_forward(lnf_.data(), lnf_mean_.data(), lnf_rstd_.data(), res_.back().data(), w.normf_w, w.normf_b, s_, BT);
  const Param& head = w.lm_head.empty() ? w.wte : w.lm_head;                                 // (V,C)
  nn::matmul_forward(logits_.data(), lnf_.data(), head.data(), nullptr, BT, C, V, threads);  // (B,T,V)
  return nn::cross_entropy(logits_, std::span<const std::int32_t>(targets, BT), V, threads, losses_);
}

void GptBackprop::backward(const Weights& w, Weights& g, const std::int32_t* inputs, const std::int32_t* targets,
                           std::size_t threads) {
  const std::size_t B = B_, T = T_, BT = B * T, C = s_.d, V = s_.V;
  // The mean over B*T positions: each position's loss has gradient 1/(B*T). The logits become their gradient.
  nn::cross_entropy_backward(logits_, std::span<const std::int32_t>(targets, BT), V, logits_,
                             1.0f / static_cast<float>(BT), threads);
  const bool tied = w.lm_head.empty();
  std::fill(dln_.begin(), dln_.end(), 0.0f);
  nn::matmul_backward(dln_.data(), tied ? g.wte.data() : g.lm_head.data(), nullptr, logits_.data(), lnf_.data(),
                      tied ? w.wte.data() : w.lm_head.data(), BT, C, V, threads);
  std::fill(dres_.begin(), dres_.end(), 0.0f);
  layernorm_backward(dres_.data(), g.normf_w.data(), g.normf_b.data(), dln_.data(), res_.back().data(),
                     w.normf_w.data(), lnf_mean_.data(), lnf_rstd_.data(), BT, C);
  for (std::size_t i = s_.layers; i-- > 0;)
    block_backward(dres_.data(), g.blocks[i], res_[i].data(), w.blocks[i], s_, layers_[i], scratch_, B, T, threads);
  encoder_backward(g.wte.data(), g.wpe.data(), dres_.data(), inputs, B, T, C);
}

}  // namespace lumen::model
