// The output head (tied and untied), and a finite-difference check through it and the loss (nn/loss.hpp) that
// with tying E's gradient is the sum of the input-path and output-path gradients.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/loss.hpp"
#include "lumen/nn/output_head.hpp"

using namespace lumen;
using namespace lumen::nn;

TEST(OutputHead, TiedHeadReadsTheEmbeddingsOwnStorage) {
  Embedding emb(7, 3);
  emb.init_normal(0.5f, 1);
  OutputHead head = OutputHead::tied(emb);
  EXPECT_TRUE(head.is_tied());
  EXPECT_EQ(head.W().data(), emb.E().data());
  EXPECT_EQ(&head.dW(), &emb.dE());
  EXPECT_THROW(head.init_normal(), UsageError);
  Matrix h(2, 3);
  h.set(0, 0, 1.0f);
  h.set(1, 2, -2.0f);
  Matrix z = head.forward(h);
  ASSERT_EQ(z.rows(), 2u);
  ASSERT_EQ(z.cols(), 7u);
  for (std::size_t v = 0; v < 7; ++v) {
    EXPECT_FLOAT_EQ(z.at(0, v), emb.E().at(v, 0));
    EXPECT_FLOAT_EQ(z.at(1, v), -2.0f * emb.E().at(v, 2));
  }
  emb.E().set(4, 0, 9.0f);  // a change to E is a change to the head
  EXPECT_FLOAT_EQ(head.forward(h).at(0, 4), 9.0f);
}

TEST(OutputHead, UntiedHeadOwnsItsOwnInitialisedMatrix) {
  Embedding emb(40, 16);
  emb.init_normal(0.02f, 1);
  OutputHead head = OutputHead::untied(40, 16);
  head.init_normal(0.02f, 1);
  EXPECT_FALSE(head.is_tied());
  EXPECT_NE(head.W().data(), emb.E().data());
  OutputHead again = OutputHead::untied(40, 16);
  again.init_normal(0.02f, 1);
  for (std::size_t i = 0; i < head.W().size(); ++i) ASSERT_EQ(head.W().f32()[i], again.W().f32()[i]);
  // Logits against a double-precision reference.
  Rng r(3);
  Matrix h(5, 16);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 16; ++j) h.set(i, j, static_cast<float>(r.normal()));
  Matrix z = head.forward(h, 2);
  for (std::size_t n = 0; n < 5; ++n)
    for (std::size_t v = 0; v < 40; ++v) {
      double want = 0;
      for (std::size_t j = 0; j < 16; ++j) want += static_cast<double>(h.at(n, j)) * head.W().at(v, j);
      EXPECT_NEAR(z.at(n, v), want, 1e-5);
    }
}

// ---- finite-difference gradient check ------------------------------------------------------------------
namespace test_output_head {

constexpr std::size_t kV = 11, kD = 5, kB = 2, kT = 4, kN = kB * kT;
const std::vector<Id> kIds = {3, 7, 3, 0, 10, 7, 7, 2};      // repeats: several positions per row
const std::vector<Id> kTargets = {7, 3, 0, 10, 3, 1, 7, 4};  // row 1 and row 4 appear only as targets

// The model in double: h = scale * E[ids]; logits = h W^T; loss = mean CE. W is E itself when tied.
double loss_double(const std::vector<double>& E, const std::vector<double>& W, double scale) {
  double total = 0;
  for (std::size_t n = 0; n < kN; ++n) {
    const double* h = &E[static_cast<std::size_t>(kIds[n]) * kD];
    std::vector<double> z(kV);
    double m = -1e300;
    for (std::size_t v = 0; v < kV; ++v) {
      double s = 0;
      for (std::size_t j = 0; j < kD; ++j) s += scale * h[j] * W[v * kD + j];
      z[v] = s;
      m = std::max(m, s);
    }
    double sum = 0;
    for (double x : z) sum += std::exp(x - m);
    total += std::log(sum) + m - z[static_cast<std::size_t>(kTargets[n])];
  }
  return total / kN;
}

std::vector<double> to_double(const Matrix& M) {
  auto f = M.f32();
  return {f.begin(), f.end()};
}

// Runs lumen's forward/backward in f32; returns the loss. Gradients land in emb.dE() and head.dW().
double lumen_step(Embedding& emb, OutputHead& head) {
  std::vector<float> h(kN * kD), logits(kN * kV), dh(kN * kD);
  emb.forward(kIds, kB, kT, h);
  head.forward(h, kN, logits);
  const double loss = softmax_cross_entropy(logits, kTargets, kV, logits);  // logits now hold dlogits
  head.backward(h, logits, kN, dh);
  emb.backward(kIds, dh);
  return loss;
}

// Central differences in double: the f32 analytic gradient should agree to about 1e-6 relative, far below
// the tolerance; a missing path would be off by O(1) of the gradient.
void expect_close(double analytic, double numeric, const std::string& where) {
  EXPECT_NEAR(analytic, numeric, 2e-5 + 1e-3 * std::abs(numeric)) << where;
}

void gradient_check(bool tied, bool scale) {
  Embedding emb(kV, kD, {.scale_sqrt_d = scale});
  emb.init_normal(0.7f, 5);  // large enough that the softmax is far from uniform
  OutputHead head = tied ? OutputHead::tied(emb) : OutputHead::untied(kV, kD);
  if (!tied) head.init_normal(0.7f, 6);
  const double loss = lumen_step(emb, head);
  const double s = scale ? std::sqrt(static_cast<double>(kD)) : 1.0;

  std::vector<double> E = to_double(emb.E()), W = tied ? E : to_double(head.W());
  EXPECT_NEAR(loss, loss_double(E, W, s), 1e-5);
  const double eps = 1e-5;
  double input_only_diff = 0;  // how far dE is from an input-path-only gradient (tied)
  for (std::size_t i = 0; i < kV * kD; ++i) {
    // d loss / d E[i]: with tying, E appears in both h and W.
    auto Ep = E, Em = E;
    Ep[i] += eps;
    Em[i] -= eps;
    const double numeric = (loss_double(Ep, tied ? Ep : W, s) - loss_double(Em, tied ? Em : W, s)) / (2 * eps);
    expect_close(emb.dE().f32()[i], numeric, (tied ? "tied dE[" : "untied dE[") + std::to_string(i) + "]");
    if (tied) {
      const double in_only = (loss_double(Ep, W, s) - loss_double(Em, W, s)) / (2 * eps);
      input_only_diff = std::max(input_only_diff, std::abs(numeric - in_only));
    }
    if (!tied) {
      auto Wp = W, Wm = W;
      Wp[i] += eps;
      Wm[i] -= eps;
      const double nw = (loss_double(E, Wp, s) - loss_double(E, Wm, s)) / (2 * eps);
      expect_close(head.dW().f32()[i], nw, "untied dW[" + std::to_string(i) + "]");
    }
  }
  // The output path really contributes (so the check above proves the sum, not one path).
  if (tied) {
    EXPECT_GT(input_only_diff, 1e-2);
  }
}

TEST(GradientCheck, TiedEmbeddingGradientIsInputPlusOutputPath) { gradient_check(true, false); }
TEST(GradientCheck, TiedWithSqrtDScale) { gradient_check(true, true); }
TEST(GradientCheck, UntiedEmbeddingAndHeadGradients) { gradient_check(false, false); }
TEST(GradientCheck, UntiedWithSqrtDScale) { gradient_check(false, true); }

TEST(GradientCheck, TiedGradientEqualsTheSumOfTheTwoUntiedPaths) {
  // Same numbers two ways: an untied head holding a copy of E gives the two paths separately.
  Embedding tied_emb(kV, kD), split_emb(kV, kD);
  tied_emb.init_normal(0.7f, 9);
  split_emb.init_normal(0.7f, 9);
  OutputHead tied = OutputHead::tied(tied_emb);
  OutputHead copy = OutputHead::untied(kV, kD);
  for (std::size_t v = 0; v < kV; ++v) {
    for (std::size_t j = 0; j < kD; ++j) copy.W().set(v, j, split_emb.E().at(v, j));
  }
  lumen_step(tied_emb, tied);
  lumen_step(split_emb, copy);
  for (std::size_t i = 0; i < kV * kD; ++i)
    EXPECT_NEAR(tied_emb.dE().f32()[i], split_emb.dE().f32()[i] + copy.dW().f32()[i], 1e-6) << i;
}

}  // namespace test_output_head
