// The whole GPT-2 training pass against central differences of its loss w.r.t. every parameter tensor, tied and
// untied, with grouped-query heads; the tied head's gradient must add into wte (the encoder's part alone fails).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <vector>

#include "grad_check.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/gpt_backprop.hpp"

using namespace lumen;
using namespace lumen::model;
using lumen::test::grad_error;
using lumen::test::numeric_grad;
using lumen::test::randn;

namespace test_gpt_backprop {

nn::ModelShape tiny_shape(bool tied, std::uint64_t kv_heads) {
  nn::ModelShape s;
  s.V = 11;
  s.d = 8;
  s.layers = 2;
  s.heads = 2;
  s.kv_heads = kv_heads;
  s.ffn = 12;
  s.context = 6;
  s.tied = tied;
  return s;
}

// Random weights of a scale that makes every gradient O(0.01..1) (GPT-2's 0.02 would leave them at rounding level).
Weights random_weights(const nn::ModelShape& s, std::uint64_t seed) {
  const std::size_t C = s.d, hs = C / s.heads, qkvC = (s.heads + 2 * s.kv_heads) * hs;
  Weights w;
  w.wte = randn(s.V * C, seed++, 0.5);
  w.wpe = randn(s.context * C, seed++, 0.5);
  for (std::size_t l = 0; l < s.layers; ++l) {
    BlockWeights b;
    b.norm1_w = randn(C, seed++, 0.3);
    for (auto& x : b.norm1_w) x += 1;
    b.norm1_b = randn(C, seed++, 0.1);
    b.qkv_w = randn(qkvC * C, seed++, 0.4);
    b.qkv_b = randn(qkvC, seed++, 0.1);
    b.attn_proj_w = randn(C * C, seed++, 0.3);
    b.attn_proj_b = randn(C, seed++, 0.1);
    b.norm2_w = randn(C, seed++, 0.3);
    for (auto& x : b.norm2_w) x += 1;
    b.norm2_b = randn(C, seed++, 0.1);
    b.fc_w = randn(s.ffn * C, seed++, 0.4);
    b.fc_b = randn(s.ffn, seed++, 0.1);
    b.proj_w = randn(C * s.ffn, seed++, 0.3);
    b.proj_b = randn(C, seed++, 0.1);
    w.blocks.push_back(std::move(b));
  }
  w.normf_w = randn(C, seed++, 0.3);
  for (auto& x : w.normf_w) x += 1;
  w.normf_b = randn(C, seed++, 0.1);
  if (!s.tied) w.lm_head = randn(s.V * C, seed++, 0.5);
  return w;
}

void check_model(bool tied, std::uint64_t kv_heads) {
  const nn::ModelShape s = tiny_shape(tied, kv_heads);
  const std::size_t B = 2, T = 5;
  Weights w = random_weights(s, 100);
  const std::vector<std::int32_t> in{1, 4, 4, 9, 0, 10, 2, 3, 1, 7}, tg{4, 4, 9, 0, 5, 2, 3, 1, 7, 7};
  GptBackprop pass(s, B, T);
  pass.forward(w, in.data(), tg.data(), 1);
  Weights g = zeros_like(w);
  pass.backward(w, g, in.data(), tg.data(), 1);
  const auto loss = [&] { return pass.forward(w, in.data(), tg.data(), 1); };
  const auto wt = tensors(w);
  const auto gt = tensors(g);
  ASSERT_EQ(wt.size(), gt.size());
  for (std::size_t i = 0; i < wt.size(); ++i) {
    const auto numeric = numeric_grad(wt[i]->values(), loss);
    EXPECT_LT(grad_error(numeric, gt[i]->data()), 1e-2) << "tensor " << i << (tied ? " tied" : " untied");
  }
}

TEST(GptBackprop, EveryTensorUntied) { check_model(false, 2); }
TEST(GptBackprop, EveryTensorTied) { check_model(true, 2); }
TEST(GptBackprop, EveryTensorGroupedQueryHeads) { check_model(true, 1); }

TEST(GptBackprop, TiedHeadAddsIntoWte) {
  // The tied model's wte gradient = the untied model's wte gradient (encoder) + its lm_head gradient (head), when
  // lm_head holds a copy of wte; the encoder's part alone fails the finite-difference check.
  const nn::ModelShape st = tiny_shape(true, 2), su = tiny_shape(false, 2);
  const std::size_t B = 1, T = 5;
  Weights wt = random_weights(st, 7);
  Weights wu = wt;
  wu.lm_head = wt.wte;
  const std::vector<std::int32_t> in{1, 4, 4, 9, 0}, tg{4, 4, 9, 0, 5};
  GptBackprop pt(st, B, T), pu(su, B, T);
  pt.forward(wt, in.data(), tg.data(), 1);
  Weights gt = zeros_like(wt);
  pt.backward(wt, gt, in.data(), tg.data(), 1);
  pu.forward(wu, in.data(), tg.data(), 1);
  Weights gu = zeros_like(wu);
  pu.backward(wu, gu, in.data(), tg.data(), 1);
  for (std::size_t i = 0; i < gt.wte.size(); ++i) EXPECT_NEAR(gt.wte[i], gu.wte[i] + gu.lm_head[i], 1e-5);
  const auto numeric = numeric_grad(wt.wte.values(), [&] { return pt.forward(wt, in.data(), tg.data(), 1); });
  EXPECT_LT(grad_error(numeric, gt.wte.data()), 1e-2);
  EXPECT_GT(grad_error(numeric, gu.wte.data()), 0.1);
}

TEST(GptBackprop, RejectsOtherArchitectures) {
  nn::ModelShape s = tiny_shape(true, 2);
  s.norm = nn::Norm::rmsnorm;
  EXPECT_THROW(GptBackprop(s, 1, 2), InputError);
  s = tiny_shape(true, 2);
  EXPECT_THROW(GptBackprop(s, 1, 7), InputError);  // T beyond the context
}

}  // namespace test_gpt_backprop
