// The forward pass: input layer, N pre-norm blocks (block.hpp, the loop training shares), the final norm and the
// head. The model is one sequence (B = 1) at a time.
#include "lumen/model/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numbers>

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/model/block.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/nn/linear.hpp"

namespace lumen::model {

namespace {

bool all_finite(const std::vector<float>& x) {
  return std::all_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); });
}

void expect_size(const Param& v, std::size_t n, const std::string& what) {
  if (v.size() != n) throw InputError(fmt::format("{} has {} values; the config needs {}", what, v.size(), n));
}

// RoPE frequencies, each divided by its rope_freq_factors' divisor (Llama 3.1's scaling).
std::vector<float> inv_freq_for(const Config& c, std::size_t hs) {
  std::vector<float> f(hs / 2);
  rope_inv_freq(f.data(), hs, c.shape.rope_theta);
  if (c.rope_factor <= 0 && c.rope_freq_factors.empty()) return f;
  const std::vector<float> divisor = rope_freq_factors(c, hs);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] /= divisor[i];
  return f;
}

}  // namespace

Transformer::Transformer(Config config, Weights weights) : config_(std::move(config)), weights_(std::move(weights)) {
  const nn::ModelShape& s = config_.shape;
  const std::size_t C = s.d, V = s.V, F = s.ffn, hs = s.d / s.heads, qkvC = (s.heads + 2 * s.kv_heads) * hs;
  const bool gelu = s.mlp == nn::Mlp::gelu, ln = s.norm == nn::Norm::layernorm;
  expect_size(weights_.wte, V * C, "the token embedding");
  expect_size(weights_.wpe, s.positional == nn::Positional::learned ? s.context * C : 0, "the positional table");
  if (weights_.blocks.size() != s.layers)
    throw InputError(fmt::format("{} blocks; the config needs {}", weights_.blocks.size(), s.layers));
  const std::size_t bias = s.biases ? 1 : 0;
  for (std::size_t i = 0; i < s.layers; ++i) {
    const BlockWeights& b = weights_.blocks[i];
    const std::string at = fmt::format("block {}: ", i);
    expect_size(b.norm1_w, C, at + "norm 1");
    expect_size(b.norm1_b, ln && s.biases ? C : 0, at + "norm 1 bias");
    expect_size(b.qkv_w, qkvC * C, at + "qkv");
    expect_size(b.qkv_b, bias * qkvC, at + "qkv bias");
    expect_size(b.attn_proj_w, C * C, at + "attention projection");
    expect_size(b.attn_proj_b, bias * C, at + "attention projection bias");
    expect_size(b.norm2_w, C, at + "norm 2");
    expect_size(b.norm2_b, ln && s.biases ? C : 0, at + "norm 2 bias");
    expect_size(b.fc_w, (gelu ? 1 : 2) * F * C, at + "MLP up");
    expect_size(b.fc_b, bias * (gelu ? 1 : 2) * F, at + "MLP up bias");
    expect_size(b.proj_w, C * F, at + "MLP down");
    expect_size(b.proj_b, bias * C, at + "MLP down bias");
  }
  expect_size(weights_.normf_w, C, "the final norm");
  expect_size(weights_.normf_b, ln && s.biases ? C : 0, "the final norm bias");
  if (!weights_.lm_head.empty()) expect_size(weights_.lm_head, V * C, "lm_head");
}

void Transformer::final_norm(float* out, const float* residual, std::size_t n) const {
  norm_forward(out, nullptr, nullptr, residual, weights_.normf_w, weights_.normf_b, config_.shape, n);
}

void Transformer::head(float* logits, const float* h, std::size_t n, std::size_t threads) const {
  const Param& W = weights_.lm_head.empty() ? weights_.wte : weights_.lm_head;  // (V, C)
  linear_forward(logits, h, W, nullptr, n, config_.shape.d, config_.shape.V, threads);
}

double Transformer::flops(std::size_t T, std::size_t head_rows) const {
  const nn::ModelShape& s = config_.shape;
  const double C = static_cast<double>(s.d), F = static_cast<double>(s.ffn), hs = C / static_cast<double>(s.heads);
  const double qkvC = static_cast<double>(s.heads + 2 * s.kv_heads) * hs;
  const double linear = C * qkvC + C * C + (s.mlp == nn::Mlp::gelu ? 2 : 3) * C * F;  // weights per block
  const double t = static_cast<double>(T);
  const double attention = 2.0 * 2.0 * C * t * (t + 1) / 2;  // QK^T and PV over the causal half
  return static_cast<double>(s.layers) * (2.0 * t * linear + attention) +
         2.0 * static_cast<double>(head_rows) * static_cast<double>(s.V) * C;
}

namespace {

// out (T,C) = E's row of each id (+ the position's row of P, when the model learns positions). A half E (f16 or bf16
// kept in place) is widened row by row; the f32 arithmetic is encoder_forward's.
void embed(float* out, const std::vector<std::int32_t>& ids, const Param& E, const Param& P, std::size_t C) {
  const std::size_t T = ids.size();
  const float* pos = P.empty() ? nullptr : P.data();
  if (E.dtype() == DType::f32) return encoder_forward(out, ids.data(), E.data(), pos, 1, T, C);
  for (std::size_t t = 0; t < T; ++t) {
    const std::uint16_t* row = E.half() + static_cast<std::size_t>(ids[t]) * C;
    float* o = out + t * C;
    kernels::half_to_f32(E.dtype(), row, o, C);
    if (pos != nullptr)
      for (std::size_t i = 0; i < C; ++i) o[i] = o[i] + pos[t * C + i];
  }
}

}  // namespace

ForwardResult Transformer::forward(const std::vector<std::int32_t>& ids, const ForwardOptions& o) const {
  const nn::ModelShape& s = config_.shape;
  const std::size_t T = ids.size(), C = s.d, V = s.V, hs = C / s.heads;
  if (T == 0) throw InputError("no tokens to run the model on");
  if (T > s.context)
    throw InputError(fmt::format("{} tokens; the model's context is {} (shorten the text)", T, s.context));
  for (std::size_t t = 0; t < T; ++t)
    if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= V) throw IdError(ids[t], t, static_cast<std::int64_t>(V));

  std::vector<float> residual(T * C), cos, sin;
  if (s.positional == nn::Positional::rope) {
    const std::vector<float> inv_freq = inv_freq_for(config_, hs);
    cos.resize(T * hs / 2);
    sin.resize(T * hs / 2);
    rope_tables(cos.data(), sin.data(), inv_freq.data(), T, hs);
  }
  BlockActivations a(s, 1, T, false);  // one block's activations, reused by every block

  ForwardResult r;
  r.T = T;
  r.V = V;
  embed(residual.data(), ids, weights_.wte, weights_.wpe, C);  // (T,C)
  if (o.keep_layers) r.layers.push_back(residual);
  for (std::size_t l = 0; l < weights_.blocks.size(); ++l) {
    block_forward(residual.data(), residual.data(), weights_.blocks[l], s, a, cos.empty() ? nullptr : cos.data(),
                  sin.empty() ? nullptr : sin.data(), 1, T, o.threads);  // (T,C), in place
    // Finite weights can still overflow (weights x 1e30): stop at the block that did, not at NaN logits.
    if (!all_finite(residual)) throw InputError(fmt::format("block {} produced non-finite values", l + 1));
    if (o.keep_layers) r.layers.push_back(residual);
  }
  if (o.no_logits) return r;
  const std::size_t rows = o.last_only ? 1 : T, first = T - rows;
  final_norm(a.ln1.data(), residual.data() + first * C, rows);
  r.logits.resize(rows * V);  // (rows, V)
  head(r.logits.data(), a.ln1.data(), rows, o.threads);
  if (!all_finite(r.logits)) throw InputError("the output head produced non-finite values");
  return r;
}

}  // namespace lumen::model
