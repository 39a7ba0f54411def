// Finite-difference checks of every backward operation GPT-2 training uses: each op's analytic gradient (from
// dout = r for the loss sum(out * r)) against central differences, on tiny shapes; attention's BLAS backward against
// its plain-loop reference with grouped-query heads; and checks that a gradient missing one term is rejected.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "grad_check.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/nn/linear.hpp"
#include "lumen/nn/loss.hpp"

using namespace lumen;
using namespace lumen::model;
using lumen::test::dot;
using lumen::test::grad_error;
using lumen::test::numeric_grad;
using lumen::test::randn;

namespace test_backward_ops {
constexpr double kTol = 2e-3;  // central differences in f32 on O(1) values: ~1e-4 relative

TEST(ModelBackward, Matmul) {
  const std::size_t BT = 3, C = 4, OC = 5;
  auto inp = randn(BT * C, 1), w = randn(OC * C, 2), bias = randn(OC, 3);
  const auto r = randn(BT * OC, 4);
  const auto loss = [&] {
    std::vector<float> out(BT * OC);
    nn::matmul_forward(out.data(), inp.data(), w.data(), bias.data(), BT, C, OC, 1);
    return dot(out, r);
  };
  std::vector<float> dinp(BT * C), dw(OC * C), db(OC);
  nn::matmul_backward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(), BT, C, OC, 1);
  EXPECT_LT(grad_error(numeric_grad(inp, loss), dinp.data()), kTol);
  EXPECT_LT(grad_error(numeric_grad(w, loss), dw.data()), kTol);
  EXPECT_LT(grad_error(numeric_grad(bias, loss), db.data()), kTol);
  // Accumulates: a second call doubles.
  const auto dw1 = dw;
  nn::matmul_backward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(), BT, C, OC, 1);
  for (std::size_t i = 0; i < dw.size(); ++i) EXPECT_FLOAT_EQ(dw[i], 2 * dw1[i]);
}

TEST(ModelBackward, Layernorm) {
  const std::size_t BT = 3, C = 6;
  auto inp = randn(BT * C, 5), w = randn(C, 6), b = randn(C, 7);
  const auto r = randn(BT * C, 8);
  const auto loss = [&] {
    std::vector<float> out(BT * C);
    layernorm_forward(out.data(), nullptr, nullptr, inp.data(), w.data(), b.data(), BT, C, 1e-5f);
    return dot(out, r);
  };
  std::vector<float> out(BT * C), mean(BT), rstd(BT), dinp(BT * C), dw(C), db(C);
  layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(), BT, C, 1e-5f);
  layernorm_backward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(), mean.data(), rstd.data(), BT,
                     C);
  EXPECT_LT(grad_error(numeric_grad(inp, loss), dinp.data()), kTol);
  EXPECT_LT(grad_error(numeric_grad(w, loss), dw.data()), kTol);
  EXPECT_LT(grad_error(numeric_grad(b, loss), db.data()), kTol);
  // Without the term through rstd (dx = rstd (dn - mean(dn))), the check fails.
  std::vector<float> dropped(BT * C);
  for (std::size_t i = 0; i < BT; ++i) {
    double a = 0;
    for (std::size_t c = 0; c < C; ++c) a += r[i * C + c] * w[c];
    a /= static_cast<double>(C);
    for (std::size_t c = 0; c < C; ++c) dropped[i * C + c] = static_cast<float>(rstd[i] * (r[i * C + c] * w[c] - a));
  }
  EXPECT_GT(grad_error(numeric_grad(inp, loss), dropped.data()), 0.05);
}

TEST(ModelBackward, Gelu) {
  const std::size_t N = 40;
  auto inp = randn(N, 9, 2.0);
  const auto r = randn(N, 10);
  const auto loss = [&] {
    std::vector<float> out(N);
    gelu_forward(out.data(), inp.data(), N);
    return dot(out, r);
  };
  std::vector<float> dinp(N);
  gelu_backward(dinp.data(), inp.data(), r.data(), N);
  EXPECT_LT(grad_error(numeric_grad(inp, loss), dinp.data()), kTol);
  // The sech^2 term dropped (d/dx taken as 0.5 (1 + tanh u)): rejected.
  std::vector<float> dropped(N);
  for (std::size_t i = 0; i < N; ++i) {
    const double x = inp[i];
    dropped[i] = static_cast<float>(0.5 * (1 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x))) * r[i]);
  }
  EXPECT_GT(grad_error(numeric_grad(inp, loss), dropped.data()), 0.05);
}

TEST(ModelBackward, EncoderScatterAdds) {
  const std::size_t B = 2, T = 3, C = 4, V = 5;
  const std::vector<std::int32_t> ids{1, 3, 1, 4, 1, 0};  // id 1 three times: its row sums three gradients
  auto wte = randn(V * C, 11), wpe = randn(T * C, 12);
  const auto r = randn(B * T * C, 13);
  const auto loss = [&] {
    std::vector<float> out(B * T * C);
    encoder_forward(out.data(), ids.data(), wte.data(), wpe.data(), B, T, C);
    return dot(out, r);
  };
  std::vector<float> dwte(V * C), dwpe(T * C);
  encoder_backward(dwte.data(), dwpe.data(), r.data(), ids.data(), B, T, C);
  EXPECT_LT(grad_error(numeric_grad(wte, loss), dwte.data()), kTol);
  EXPECT_LT(grad_error(numeric_grad(wpe, loss), dwpe.data()), kTol);
}

TEST(ModelBackward, Residual) {
  const std::size_t N = 7;
  auto a = randn(N, 14), b = randn(N, 15);
  const auto r = randn(N, 16);
  const auto loss = [&] {
    std::vector<float> out(N);
    residual_forward(out.data(), a.data(), b.data(), N);
    return dot(out, r);
  };
  std::vector<float> da(N), db(N);
  residual_backward(da.data(), db.data(), r.data(), N);
  EXPECT_LT(grad_error(numeric_grad(a, loss), da.data()), kTol);
  EXPECT_LT(grad_error(numeric_grad(b, loss), db.data()), kTol);
}

TEST(ModelBackward, CrossEntropy) {
  const std::size_t BT = 4, V = 7;
  auto logits = randn(BT * V, 17, 2.0);
  const std::vector<std::int32_t> targets{0, 6, 3, 3};
  std::vector<float> losses(BT);
  const auto loss = [&] { return nn::cross_entropy(logits, targets, V, 1, losses); };
  const double l = loss();
  double mean = 0;
  for (std::size_t i = 0; i < BT; ++i) {  // -log softmax by hand
    double z = 0;
    for (std::size_t v = 0; v < V; ++v) z += std::exp(static_cast<double>(logits[i * V + v]));
    mean += (std::log(z) - logits[i * V + static_cast<std::size_t>(targets[i])]) / BT;
  }
  EXPECT_NEAR(l, mean, 1e-5);
  std::vector<float> d(BT * V);
  nn::cross_entropy_backward(logits, targets, V, d, 1.0f / BT);
  EXPECT_LT(grad_error(numeric_grad(logits, loss), d.data()), kTol);
  // In place gives the same.
  auto inplace = logits;
  nn::cross_entropy_backward(inplace, targets, V, inplace, 1.0f / BT);
  EXPECT_EQ(inplace, d);
}

TEST(ModelBackward, AttentionWithGroupedHeads) {
  struct Case {
    std::size_t B, T, NH, NKV, hs;
  };
  for (const Case c : {Case{2, 5, 4, 2, 3}, Case{1, 6, 2, 2, 4}, Case{1, 4, 3, 1, 2}}) {
    const std::size_t ld = (c.NH + 2 * c.NKV) * c.hs, C = c.NH * c.hs;
    auto qkv = randn(c.B * c.T * ld, 18 + c.T);
    const auto r = randn(c.B * c.T * C, 19);
    const auto loss = [&] {
      std::vector<float> out(c.B * c.T * C);
      attention_forward_reference(out.data(), qkv.data(), c.B, c.T, c.NH, c.NKV, c.hs);
      return dot(out, r);
    };
    std::vector<float> out(c.B * c.T * C), att(c.B * c.NH * c.T * c.T);
    attention_forward(out.data(), att.data(), qkv.data(), c.B, c.T, c.NH, c.NKV, c.hs, 2);
    std::vector<float> fast(qkv.size()), ref(qkv.size());
    attention_backward(fast.data(), r.data(), qkv.data(), att.data(), c.B, c.T, c.NH, c.NKV, c.hs, 2);
    attention_backward_reference(ref.data(), r.data(), qkv.data(), att.data(), c.B, c.T, c.NH, c.NKV, c.hs);
    for (std::size_t i = 0; i < fast.size(); ++i) ASSERT_NEAR(fast[i], ref[i], 1e-5) << "at " << i;
    const auto numeric = numeric_grad(qkv, loss);
    EXPECT_LT(grad_error(numeric, fast.data()), kTol) << "NH " << c.NH << " NKV " << c.NKV;
    if (c.NKV < c.NH) {
      // A shared key/value head's gradient from its first query head only (the others' not summed): rejected.
      std::vector<float> first_only(qkv.size());
      std::vector<float> r_first(r.size());
      const std::size_t group = c.NH / c.NKV;
      for (std::size_t i = 0; i < r.size(); ++i)
        if (((i % C) / c.hs) % group == 0) r_first[i] = r[i];
      attention_backward(first_only.data(), r_first.data(), qkv.data(), att.data(), c.B, c.T, c.NH, c.NKV, c.hs, 1);
      for (std::size_t i = 0; i < fast.size(); ++i)
        if (i % ld < c.NH * c.hs) first_only[i] = fast[i];  // keep the right dQ: only dK, dV miss terms
      EXPECT_GT(grad_error(numeric, first_only.data()), 0.05);
    }
  }
}

}  // namespace test_backward_ops
