// lumen's one optimiser (lumen/train/optimizer.hpp): SGD, Adam and AdamW's decoupled decay, against the update
// written out in double precision as PyTorch's torch.optim.AdamW computes it, and the properties each old form
// was tested for (the MLP language model's Adam, the GPT's AdamW).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/train/optimizer.hpp"

using namespace lumen;
using namespace lumen::train;

namespace test_optimizer {

// PyTorch's AdamW step in double: w *= 1 - lr wd; m, v; w -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps).
struct Reference {
  std::vector<double> w, m, v;
  void step(const std::vector<float>& g, double lr, int t, const AdamOptions& o, bool decay) {
    const double b1 = o.beta1, b2 = o.beta2;
    const double bc1 = 1 - std::pow(b1, t), bc2 = 1 - std::pow(b2, t);
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (decay) w[i] *= 1 - lr * o.weight_decay;
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * static_cast<double>(g[i]) * g[i];
      w[i] -= lr / bc1 * m[i] / (std::sqrt(v[i]) / std::sqrt(bc2) + o.eps);
    }
  }
};

void expect_adam_matches_reference(const AdamOptions& o, bool decay) {
  Rng rng(11);
  std::vector<float> w(64), g(64);
  for (auto& x : w) x = static_cast<float>(rng.normal());
  Reference ref{{w.begin(), w.end()}, std::vector<double>(64), std::vector<double>(64)};
  Optimizer opt(OptimizerKind::adam, {{w.data(), g.data(), w.size(), decay}}, o);
  for (int t = 1; t <= 20; ++t) {
    for (auto& x : g) x = static_cast<float>(rng.normal()) * 0.1f;
    const float lr = 1e-2f / static_cast<float>(t);
    opt.step(lr);
    ref.step(g, lr, t, o, decay);
  }
  EXPECT_EQ(opt.steps(), 20u);
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], ref.w[i], 2e-6 * (1 + std::abs(ref.w[i]))) << i;
}

TEST(Optimizer, AdamMatchesPyTorchsUpdate) {
  expect_adam_matches_reference({}, false);  // the language model's: b2 0.999, no decay
}

TEST(Optimizer, AdamWMatchesPyTorchsUpdate) {
  expect_adam_matches_reference({.beta2 = 0.95f, .weight_decay = 0.1f}, true);  // the GPT's
}

TEST(Optimizer, DecaysOnlyMarkedTensorsAndIsDecoupled) {
  std::vector<float> a{1.0f, -2.0f}, b{1.0f, -2.0f}, ga{0, 0}, gb{0, 0};
  Optimizer opt(OptimizerKind::adam, {{a.data(), ga.data(), 2, true}, {b.data(), gb.data(), 2, false}},
                {.beta2 = 0.95f, .weight_decay = 0.5f});
  opt.step(0.1f);
  // Zero gradient: Adam's step is 0; the decoupled decay shrinks only a, by lr * wd * w.
  EXPECT_FLOAT_EQ(a[0], 1.0f - 0.1f * 0.5f * 1.0f);
  EXPECT_FLOAT_EQ(a[1], -2.0f + 0.1f * 0.5f * 2.0f);
  EXPECT_EQ(b, (std::vector<float>{1.0f, -2.0f}));
  EXPECT_EQ(opt.m()[0], (std::vector<float>{0, 0}));  // the decay never enters the moments
}

TEST(Optimizer, FirstAdamStepMovesEachWeightByLr) {
  // Bias-corrected m / sqrt(v) = sign(g) at t = 1, whatever the betas.
  for (const float b2 : {0.999f, 0.95f}) {
    std::vector<float> c{0, 0}, g{3.0f, -0.5f};
    Optimizer opt(OptimizerKind::adam, {{c.data(), g.data(), 2}}, {.beta2 = b2});
    opt.step(0.01f);
    EXPECT_NEAR(c[0], -0.01f, 1e-6);
    EXPECT_NEAR(c[1], 0.01f, 1e-6);
  }
}

TEST(Optimizer, SgdIsPlainGradientDescentAndNamesParse) {
  std::vector<float> w{1.0f, 2.0f}, g{0.5f, -1.0f};
  Optimizer opt(OptimizerKind::sgd, {{w.data(), g.data(), 2}});
  opt.step(0.1f);
  EXPECT_FLOAT_EQ(w[0], 0.95f);
  EXPECT_FLOAT_EQ(w[1], 2.1f);
  EXPECT_TRUE(opt.m().empty());
  EXPECT_EQ(parse_optimizer("adam"), OptimizerKind::adam);
  EXPECT_EQ(optimizer_name(parse_optimizer("sgd")), "sgd");
  EXPECT_THROW(parse_optimizer("lion"), UsageError);
}

}  // namespace test_optimizer
