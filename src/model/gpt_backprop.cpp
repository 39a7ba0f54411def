// GPT-2's training pass: forward keeping activations, backward in reverse through every operation. The residual
// stream's gradient lives in one buffer, dres: a block computes r + f(r), so d r = d out + J_f^T d out, and each
// branch's backward adds its J_f^T d out into dres in place (residual_backward's two outputs folded into one).
#include "lumen/model/gpt_backprop.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/model/ops.hpp"

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

std::vector<std::vector<float>*> tensors(Weights& w) {
  std::vector<std::vector<float>*> t{&w.wte, &w.wpe};
  for (BlockWeights& b : w.blocks)
    for (auto* p : {&b.norm1_w, &b.norm1_b, &b.qkv_w, &b.qkv_b, &b.attn_proj_w, &b.attn_proj_b, &b.norm2_w, &b.norm2_b,
                    &b.fc_w, &b.fc_b, &b.proj_w, &b.proj_b})
      t.push_back(p);
  t.push_back(&w.normf_w);
  t.push_back(&w.normf_b);
  if (!w.lm_head.empty()) t.push_back(&w.lm_head);
  return t;
}

std::vector<const std::vector<float>*> tensors(const Weights& w) {
  std::vector<const std::vector<float>*> out;
  for (auto* p : tensors(const_cast<Weights&>(w))) out.push_back(p);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  return out;
}

Weights zeros_like(const Weights& w) {
  Weights z = w;
  set_zero(z);
  return z;
}

void set_zero(Weights& w) {
  for (auto* t : tensors(w)) std::fill(t->begin(), t->end(), 0.0f);
}

GptBackprop::GptBackprop(const nn::ModelShape& shape, std::size_t B, std::size_t T) : s_(shape), B_(B), T_(T) {
  check_trainable(s_);
  if (B == 0 || T == 0 || T > s_.context)
    throw InputError(fmt::format("a batch of {} x {} tokens; need B >= 1 and 1 <= T <= context {}", B, T, s_.context));
  const std::size_t BT = B * T, C = s_.d, F = s_.ffn, NH = s_.heads, hs = C / NH;
  const std::size_t qkvC = (NH + 2 * s_.kv_heads) * hs;
  layers_.resize(s_.layers);
  for (Layer& l : layers_) {
    for (auto* v : {&l.res, &l.ln1, &l.atty, &l.res2, &l.ln2}) v->resize(BT * C);
    for (auto* v : {&l.ln1_mean, &l.ln1_rstd, &l.ln2_mean, &l.ln2_rstd}) v->resize(BT);
    l.qkv.resize(BT * qkvC);
    l.att.resize(B * NH * T * T);
    l.fch.resize(BT * F);
    l.fch_gelu.resize(BT * F);
  }
  res_final_.resize(BT * C);
  lnf_.resize(BT * C);
  lnf_mean_.resize(BT);
  lnf_rstd_.resize(BT);
  logits_.resize(BT * s_.V);
  losses_.resize(BT);
  for (auto* v : {&dres_, &dln_, &datty_, &dtmp_}) v->resize(BT * C);
  dqkv_.resize(BT * qkvC);
  dfch_.resize(BT * F);
  dfch_gelu_.resize(BT * F);
}

double GptBackprop::forward(const Weights& w, const std::int32_t* inputs, const std::int32_t* targets,
                            std::size_t threads) {
  const std::size_t B = B_, T = T_, BT = B * T, C = s_.d, F = s_.ffn, V = s_.V, NH = s_.heads, NKV = s_.kv_heads;
  const std::size_t hs = C / NH, qkvC = (NH + 2 * NKV) * hs;
  const auto eps = static_cast<float>(s_.norm_eps);
  float* res = layers_.empty() ? res_final_.data() : layers_[0].res.data();
  encoder_forward(res, inputs, w.wte.data(), w.wpe.data(), B, T, C);  // (B,T,C)
  for (std::size_t i = 0; i < s_.layers; ++i) {
    Layer& l = layers_[i];
    const BlockWeights& b = w.blocks[i];
    float* out = i + 1 < s_.layers ? layers_[i + 1].res.data() : res_final_.data();
    layernorm_forward(l.ln1.data(), l.ln1_mean.data(), l.ln1_rstd.data(), l.res.data(), b.norm1_w.data(),
                      b.norm1_b.data(), BT, C, eps);                                                   // (B,T,C)
    matmul_forward(l.qkv.data(), l.ln1.data(), b.qkv_w.data(), b.qkv_b.data(), BT, C, qkvC, threads);  // (B,T,qkvC)
    attention_forward(l.atty.data(), l.att.data(), l.qkv.data(), B, T, NH, NKV, hs, threads);          // (B,T,C)
    matmul_forward(dtmp_.data(), l.atty.data(), b.attn_proj_w.data(), b.attn_proj_b.data(), BT, C, C, threads);
    residual_forward(l.res2.data(), l.res.data(), dtmp_.data(), BT * C);
    layernorm_forward(l.ln2.data(), l.ln2_mean.data(), l.ln2_rstd.data(), l.res2.data(), b.norm2_w.data(),
                      b.norm2_b.data(), BT, C, eps);
    matmul_forward(l.fch.data(), l.ln2.data(), b.fc_w.data(), b.fc_b.data(), BT, C, F, threads);  // (B,T,F)
    gelu_forward(l.fch_gelu.data(), l.fch.data(), BT * F);
    matmul_forward(dtmp_.data(), l.fch_gelu.data(), b.proj_w.data(), b.proj_b.data(), BT, F, C, threads);  // (B,T,C)
    residual_forward(out, l.res2.data(), dtmp_.data(), BT * C);
  }
  layernorm_forward(lnf_.data(), lnf_mean_.data(), lnf_rstd_.data(), res_final_.data(), w.normf_w.data(),
                    w.normf_b.data(), BT, C, eps);
  const std::vector<float>& head = w.lm_head.empty() ? w.wte : w.lm_head;                // (V,C)
  matmul_forward(logits_.data(), lnf_.data(), head.data(), nullptr, BT, C, V, threads);  // (B,T,V)
  return crossentropy_forward(losses_.data(), logits_.data(), targets, BT, V);
}

void GptBackprop::backward(const Weights& w, Weights& g, const std::int32_t* inputs, const std::int32_t* targets,
                           std::size_t threads) {
  const std::size_t B = B_, T = T_, BT = B * T, C = s_.d, F = s_.ffn, V = s_.V, NH = s_.heads, NKV = s_.kv_heads;
  const std::size_t hs = C / NH, qkvC = (NH + 2 * NKV) * hs;
  // The mean over B*T positions: each position's loss has gradient 1/(B*T). The logits become their gradient.
  crossentropy_softmax_backward(logits_.data(), logits_.data(), targets, BT, V, 1.0f / static_cast<float>(BT));
  const bool tied = w.lm_head.empty();
  std::fill(dln_.begin(), dln_.end(), 0.0f);
  matmul_backward(dln_.data(), tied ? g.wte.data() : g.lm_head.data(), nullptr, logits_.data(), lnf_.data(),
                  tied ? w.wte.data() : w.lm_head.data(), BT, C, V, threads);
  std::fill(dres_.begin(), dres_.end(), 0.0f);
  layernorm_backward(dres_.data(), g.normf_w.data(), g.normf_b.data(), dln_.data(), res_final_.data(), w.normf_w.data(),
                     lnf_mean_.data(), lnf_rstd_.data(), BT, C);
  for (std::size_t i = s_.layers; i-- > 0;) {
    Layer& l = layers_[i];
    const BlockWeights& b = w.blocks[i];
    BlockWeights& gb = g.blocks[i];
    // The MLP branch: out = res2 + proj(gelu(fc(ln2(res2)))); dres holds d out and becomes d res2.
    std::fill(dfch_gelu_.begin(), dfch_gelu_.end(), 0.0f);
    matmul_backward(dfch_gelu_.data(), gb.proj_w.data(), gb.proj_b.data(), dres_.data(), l.fch_gelu.data(),
                    b.proj_w.data(), BT, F, C, threads);
    std::fill(dfch_.begin(), dfch_.end(), 0.0f);
    gelu_backward(dfch_.data(), l.fch.data(), dfch_gelu_.data(), BT * F);
    std::fill(dln_.begin(), dln_.end(), 0.0f);
    matmul_backward(dln_.data(), gb.fc_w.data(), gb.fc_b.data(), dfch_.data(), l.ln2.data(), b.fc_w.data(), BT, C, F,
                    threads);
    layernorm_backward(dres_.data(), gb.norm2_w.data(), gb.norm2_b.data(), dln_.data(), l.res2.data(), b.norm2_w.data(),
                       l.ln2_mean.data(), l.ln2_rstd.data(), BT, C);
    // The attention branch: res2 = res + proj(attention(qkv(ln1(res)))); dres becomes d res.
    std::fill(datty_.begin(), datty_.end(), 0.0f);
    matmul_backward(datty_.data(), gb.attn_proj_w.data(), gb.attn_proj_b.data(), dres_.data(), l.atty.data(),
                    b.attn_proj_w.data(), BT, C, C, threads);
    std::fill(dqkv_.begin(), dqkv_.end(), 0.0f);
    attention_backward(dqkv_.data(), datty_.data(), l.qkv.data(), l.att.data(), B, T, NH, NKV, hs, threads);
    std::fill(dln_.begin(), dln_.end(), 0.0f);
    matmul_backward(dln_.data(), gb.qkv_w.data(), gb.qkv_b.data(), dqkv_.data(), l.ln1.data(), b.qkv_w.data(), BT, C,
                    qkvC, threads);
    layernorm_backward(dres_.data(), gb.norm1_w.data(), gb.norm1_b.data(), dln_.data(), l.res.data(), b.norm1_w.data(),
                       l.ln1_mean.data(), l.ln1_rstd.data(), BT, C);
  }
  encoder_backward(g.wte.data(), g.wpe.data(), dres_.data(), inputs, B, T, C);
}

}  // namespace lumen::model
