// The transformer block's forward and backward over the ops of ops.hpp. The forward is the same arithmetic, op by
// op, for inference and training, so a trained model's loss and its inference logits agree bit for bit.
#include "lumen/model/block.hpp"

#include <algorithm>

#include "lumen/core/error.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/nn/linear.hpp"

namespace lumen::model {

namespace {

const float* bias_or_null(const Param& b) { return b.empty() ? nullptr : b.data(); }

void linear(float* out, const float* inp, const Param& W, const Param& b, std::size_t BT, std::size_t C, std::size_t OC,
            std::size_t threads) {
  linear_forward(out, inp, W, bias_or_null(b), BT, C, OC, threads);
}

void zero(std::vector<float>& v) { std::fill(v.begin(), v.end(), 0.0f); }

}  // namespace

namespace {
// Columns [0, OC) of out (row stride ldo); a stack's parts fill their columns in turn.
void linear_into(float* out, std::size_t ldo, const float* inp, const Param& W, const float* bias, std::size_t BT,
                 std::size_t C, std::size_t OC, std::size_t threads) {
  if (const auto* parts = W.parts()) {
    std::size_t o = 0;
    for (const Param& part : *parts) {
      const std::size_t rows = part.size() / C;
      linear_into(out + o, ldo, inp, part, bias == nullptr ? nullptr : bias + o, BT, C, rows, threads);
      o += rows;
    }
    return;
  }
  if (W.dtype() == DType::f32) nn::matmul_forward(out, inp, W.data(), bias, BT, C, OC, threads, W.in_out(), ldo);
  else nn::matmul_forward(out, inp, W.half(), W.dtype() == DType::bf16, bias, BT, C, OC, threads, W.in_out(), ldo);
}
}  // namespace

void linear_forward(float* out, const float* inp, const Param& W, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads) {
  linear_into(out, OC, inp, W, bias, BT, C, OC, threads);
}

BlockActivations::BlockActivations(const nn::ModelShape& s, std::size_t B, std::size_t T, bool keep_att) {
  const std::size_t BT = B * T, C = s.d, F = s.ffn, hs = C / s.heads, qkvC = (s.heads + 2 * s.kv_heads) * hs;
  for (auto* v : {&ln1, &atty, &res2, &ln2, &tmp}) v->resize(BT * C);
  for (auto* v : {&ln1_mean, &ln1_rstd, &ln2_mean, &ln2_rstd}) v->resize(BT);
  qkv.resize(BT * qkvC);
  if (keep_att) att.resize(B * s.heads * T * T);
  fch.resize(BT * F * (s.mlp == nn::Mlp::gelu ? 1 : 2));
  fch_act.resize(BT * F);
}

BlockGradScratch::BlockGradScratch(const nn::ModelShape& s, std::size_t B, std::size_t T) {
  const std::size_t BT = B * T, C = s.d, F = s.ffn, hs = C / s.heads, qkvC = (s.heads + 2 * s.kv_heads) * hs;
  dln.resize(BT * C);
  datty.resize(BT * C);
  dqkv.resize(BT * qkvC);
  dfch.resize(BT * F);
  dfch_act.resize(BT * F);
}

void norm_forward(float* out, float* mean, float* rstd, const float* inp, const Param& w, const Param& b,
                  const nn::ModelShape& s, std::size_t BT) {
  const auto eps = static_cast<float>(s.norm_eps);
  if (s.norm == nn::Norm::layernorm) layernorm_forward(out, mean, rstd, inp, w.data(), bias_or_null(b), BT, s.d, eps);
  else rmsnorm_forward(out, rstd, inp, w.data(), BT, s.d, eps);
}

void block_forward(float* out, const float* in, const BlockWeights& w, const nn::ModelShape& s, BlockActivations& a,
                   const float* rope_cos, const float* rope_sin, std::size_t B, std::size_t T, std::size_t threads) {
  const std::size_t BT = B * T, C = s.d, F = s.ffn, NH = s.heads, NKV = s.kv_heads, hs = C / NH;
  const std::size_t qkvC = (NH + 2 * NKV) * hs;
  norm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), in, w.norm1_w, w.norm1_b, s, BT);  // (B,T,C)
  linear(a.qkv.data(), a.ln1.data(), w.qkv_w, w.qkv_b, BT, C, qkvC, threads);
  if (rope_cos != nullptr) rope_forward(a.qkv.data(), rope_cos, rope_sin, B, T, NH, NKV, hs);  // (B,T,qkvC)
  attention_forward(a.atty.data(), a.att.empty() ? nullptr : a.att.data(), a.qkv.data(), B, T, NH, NKV, hs,
                    threads);  // (B,T,C)
  linear(a.tmp.data(), a.atty.data(), w.attn_proj_w, w.attn_proj_b, BT, C, C, threads);
  residual_forward(a.res2.data(), in, a.tmp.data(), BT * C);
  norm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.res2.data(), w.norm2_w, w.norm2_b, s, BT);
  if (s.mlp == nn::Mlp::gelu) {
    linear(a.fch.data(), a.ln2.data(), w.fc_w, w.fc_b, BT, C, F, threads);  // (B,T,F)
    gelu_forward(a.fch_act.data(), a.fch.data(), BT * F, threads);
  } else {
    linear(a.fch.data(), a.ln2.data(), w.fc_w, w.fc_b, BT, C, 2 * F, threads);  // (B,T,2F)
    swiglu_forward(a.fch_act.data(), a.fch.data(), BT, F, threads);             // (B,T,F)
  }
  linear(a.tmp.data(), a.fch_act.data(), w.proj_w, w.proj_b, BT, F, C, threads);
  residual_forward(out, a.res2.data(), a.tmp.data(), BT * C);  // (B,T,C)
}

void block_backward(float* dres, BlockWeights& g, const float* in, const BlockWeights& w, const nn::ModelShape& s,
                    const BlockActivations& a, BlockGradScratch& d, std::size_t B, std::size_t T, std::size_t threads) {
  const std::size_t BT = B * T, C = s.d, F = s.ffn, NH = s.heads, NKV = s.kv_heads, hs = C / NH;
  const std::size_t qkvC = (NH + 2 * NKV) * hs;
  for (const Param* W : {&w.qkv_w, &w.attn_proj_w, &w.fc_w, &w.proj_w})
    if (W->in_out()) throw Error("block_backward: training needs weights in (out, in) layout (own them first)");
  // The MLP branch: out = res2 + proj(gelu(fc(ln2(res2)))); dres holds d out and becomes d res2.
  zero(d.dfch_act);
  nn::matmul_backward(d.dfch_act.data(), g.proj_w.data(), g.proj_b.data(), dres, a.fch_act.data(), w.proj_w.data(), BT,
                      F, C, threads);
  zero(d.dfch);
  gelu_backward(d.dfch.data(), a.fch.data(), d.dfch_act.data(), BT * F);
  zero(d.dln);
  nn::matmul_backward(d.dln.data(), g.fc_w.data(), g.fc_b.data(), d.dfch.data(), a.ln2.data(), w.fc_w.data(), BT, C, F,
                      threads);
  layernorm_backward(dres, g.norm2_w.data(), g.norm2_b.data(), d.dln.data(), a.res2.data(), w.norm2_w.data(),
                     a.ln2_mean.data(), a.ln2_rstd.data(), BT, C);
  // The attention branch: res2 = in + proj(attention(qkv(ln1(in)))); dres becomes d in.
  zero(d.datty);
  nn::matmul_backward(d.datty.data(), g.attn_proj_w.data(), g.attn_proj_b.data(), dres, a.atty.data(),
                      w.attn_proj_w.data(), BT, C, C, threads);
  zero(d.dqkv);
  attention_backward(d.dqkv.data(), d.datty.data(), a.qkv.data(), a.att.data(), B, T, NH, NKV, hs, threads);
  zero(d.dln);
  nn::matmul_backward(d.dln.data(), g.qkv_w.data(), g.qkv_b.data(), d.dqkv.data(), a.ln1.data(), w.qkv_w.data(), BT, C,
                      qkvC, threads);
  layernorm_backward(dres, g.norm1_w.data(), g.norm1_b.data(), d.dln.data(), in, w.norm1_w.data(), a.ln1_mean.data(),
                     a.ln1_rstd.data(), BT, C);
}

}  // namespace lumen::model
