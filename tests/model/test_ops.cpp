// The forward operations against plain computations: attention (BLAS, row blocks, threads) against its loop
// reference with grouped-query heads, across the row-block edge; RoPE's rotate-half; norms; SwiGLU.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lumen/model/ops.hpp"
#include "support/random_floats.hpp"

using namespace lumen;
using namespace lumen::model;

using lumen::test::randn;

TEST(ModelOps, AttentionMatchesReference) {
  struct Case {
    std::size_t B, T, NH, NKV, hs, threads;
  };
  for (const Case c :
       {Case{1, 1, 4, 4, 8, 1}, Case{2, 7, 4, 2, 8, 2}, Case{1, 130, 6, 2, 16, 2}, Case{1, 257, 2, 1, 4, 3}}) {
    const std::size_t ld = (c.NH + 2 * c.NKV) * c.hs, C = c.NH * c.hs;
    const auto qkv = randn(c.B * c.T * ld, c.T);
    std::vector<float> fast(c.B * c.T * C), ref(c.B * c.T * C), att(c.B * c.NH * c.T * c.T);
    attention_forward(fast.data(), att.data(), qkv.data(), c.B, c.T, c.NH, c.NKV, c.hs, c.threads);
    attention_forward_reference(ref.data(), qkv.data(), c.B, c.T, c.NH, c.NKV, c.hs);
    for (std::size_t i = 0; i < fast.size(); ++i) ASSERT_NEAR(fast[i], ref[i], 1e-5) << "T " << c.T << " at " << i;
    // The kept probabilities: rows sum to 1, nothing above the diagonal.
    for (std::size_t r = 0; r < c.B * c.NH * c.T; ++r) {
      const std::size_t t = r % c.T;
      double sum = 0;
      for (std::size_t u = 0; u < c.T; ++u) {
        if (u > t) {
          ASSERT_EQ(att[r * c.T + u], 0.0f);
        }
        sum += att[r * c.T + u];
      }
      ASSERT_NEAR(sum, 1.0, 1e-5);
    }
    // Without att: the same output.
    std::vector<float> again(fast.size());
    attention_forward(again.data(), nullptr, qkv.data(), c.B, c.T, c.NH, c.NKV, c.hs, c.threads);
    EXPECT_EQ(again, fast);
  }
}

TEST(ModelOps, RopeRotatesHalves) {
  const std::size_t hs = 4, T = 3;
  std::vector<float> inv(hs / 2), cos(T * hs / 2), sin(T * hs / 2);
  rope_inv_freq(inv.data(), hs, 10000.0);
  EXPECT_FLOAT_EQ(inv[0], 1.0f);
  EXPECT_FLOAT_EQ(inv[1], 0.01f);
  rope_tables(cos.data(), sin.data(), inv.data(), T, hs);
  // One query head, one key head, one value head; position 2 rotates (x0, x2) by 2 rad and (x1, x3) by 0.02.
  std::vector<float> qkv(T * 3 * hs, 0.0f);
  float* q2 = qkv.data() + 2 * 3 * hs;
  q2[0] = 1, q2[1] = 1, q2[2] = 0.5f, q2[3] = 0;
  q2[8] = 5;  // the value head is not rotated
  rope_forward(qkv.data(), cos.data(), sin.data(), 1, T, 1, 1, hs);
  EXPECT_NEAR(q2[0], std::cos(2.0) - 0.5 * std::sin(2.0), 1e-6);  // x0 cos - x2 sin
  EXPECT_NEAR(q2[2], 0.5 * std::cos(2.0) + std::sin(2.0), 1e-6);  // x2 cos + x0 sin
  EXPECT_NEAR(q2[1], std::cos(0.02), 1e-6);
  EXPECT_NEAR(q2[3], std::sin(0.02), 1e-6);
  EXPECT_EQ(q2[8], 5.0f);
  EXPECT_EQ(qkv[0], 0.0f);  // position 0: angle 0
}

TEST(ModelOps, NormsAndSwiglu) {
  const std::vector<float> x = {1, 2, 3, 4}, w = {1, 1, 2, 2}, b = {0, 1, 0, 1};
  std::vector<float> out(4), mean(1), rstd(1);
  layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), 1, 4, 0.0f);
  EXPECT_FLOAT_EQ(mean[0], 2.5f);
  EXPECT_NEAR(rstd[0], 1 / std::sqrt(1.25), 1e-6);
  EXPECT_NEAR(out[0], -1.5 / std::sqrt(1.25), 1e-6);
  EXPECT_NEAR(out[3], 2 * 1.5 / std::sqrt(1.25) + 1, 1e-6);
  rmsnorm_forward(out.data(), rstd.data(), x.data(), w.data(), 1, 4, 0.0f);
  EXPECT_NEAR(rstd[0], 1 / std::sqrt(7.5), 1e-6);
  EXPECT_NEAR(out[2], 2 * 3 / std::sqrt(7.5), 1e-6);
  const std::vector<float> gu = {0, 1, 2, 3};  // gate (0, 1), up (2, 3)
  std::vector<float> s(2);
  swiglu_forward(s.data(), gu.data(), 1, 2);
  EXPECT_FLOAT_EQ(s[0], 0.0f);
  EXPECT_NEAR(s[1], 1 / (1 + std::exp(-1.0)) * 3, 1e-6);
  std::vector<float> g(1);
  const float one = 1.0f;
  gelu_forward(g.data(), &one, 1);
  EXPECT_NEAR(g[0], 0.841192, 1e-5);  // GELU-tanh(1)
}
