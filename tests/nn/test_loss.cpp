// The softmax cross-entropy that the MLP language model and the GPT share: against a double-precision reference,
// stable at large logits, and its three entry points (loss, backward, fused) agreeing bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/loss.hpp"

using namespace lumen;
using namespace lumen::nn;

namespace test_loss {

// -log softmax(z)[y], averaged over rows, all in double.
double reference_loss(const std::vector<float>& z, const std::vector<Id>& y, std::size_t V) {
  double total = 0;
  for (std::size_t n = 0; n < y.size(); ++n) {
    double m = -1e300, s = 0;
    for (std::size_t v = 0; v < V; ++v) m = std::max(m, static_cast<double>(z[n * V + v]));
    for (std::size_t v = 0; v < V; ++v) s += std::exp(z[n * V + v] - m);
    total += std::log(s) + m - z[n * V + static_cast<std::size_t>(y[n])];
  }
  return total / static_cast<double>(y.size());
}

TEST(Loss, MatchesADoublePrecisionReferenceAndIsStable) {
  const std::size_t N = 3, V = 6;
  std::vector<float> z = {1, 2, 3, 4, 5, 6, -1, 0, 1, 0, -1, 0.5f, 1000, 999, 1001, 998, 1000, 0};
  std::vector<Id> y = {5, 0, 2};
  const double want = reference_loss(z, y, V);
  // exp runs in f32 and each row's loss is rounded to f32: about 1e-7 relative, as llm.c's loss.
  EXPECT_NEAR(cross_entropy(z, y, V), want, 1e-6);
  std::vector<float> dz(N * V);
  const double fused = softmax_cross_entropy(z, y, V, dz);
  EXPECT_NEAR(fused, want, 1e-6);
  EXPECT_TRUE(std::isfinite(fused));  // 1000s would overflow exp without the max
  for (std::size_t n = 0; n < N; ++n) {
    double row = 0;
    for (std::size_t v = 0; v < V; ++v) row += dz[n * V + v];
    EXPECT_NEAR(row, 0.0, 1e-7);  // softmax - onehot sums to zero
    EXPECT_LT(dz[n * V + static_cast<std::size_t>(y[n])], 0.0f);
  }
  // In place (dlogits aliasing logits) gives the same gradient.
  std::vector<float> zz = z;
  softmax_cross_entropy(zz, y, V, zz);
  EXPECT_EQ(zz, dz);
  std::vector<Id> bad = {5, 6, 0};
  try {
    cross_entropy(z, bad, V);
    FAIL();
  } catch (const IdError& e) {
    EXPECT_EQ(e.id(), 6);
    EXPECT_EQ(e.position(), 1u);
  }
  const std::vector<std::int32_t> negative = {5, -1, 0};
  EXPECT_THROW(cross_entropy_backward(z, negative, V, dz, 1.0f), IdError);
  std::vector<float> short_losses(2);
  EXPECT_THROW(cross_entropy(z, y, V, 1, short_losses), UsageError);
}

// The LM calls the fused form, the GPT the loss then the backward: one arithmetic, whichever path, id type or
// thread count.
TEST(Loss, FusedEqualsLossThenBackwardBitForBit) {
  const std::size_t N = 37, V = 501;
  Rng rng(7);
  std::vector<float> z(N * V);
  for (float& x : z) x = static_cast<float>(rng.normal() * 4.0);
  std::vector<Id> y(N);
  std::vector<std::int32_t> y32(N);
  for (std::size_t n = 0; n < N; ++n) y32[n] = static_cast<std::int32_t>(y[n] = static_cast<Id>((n * 97) % V));
  std::vector<float> losses(N), d_fused(N * V), d_back(N * V), d32(N * V);
  const double fused = softmax_cross_entropy(z, y, V, d_fused, 3);
  const double loss = cross_entropy(z, y32, V, 1, losses);
  cross_entropy_backward(z, y32, V, d_back, 1.0f / static_cast<float>(N), 2);
  cross_entropy_backward(z, y, V, d32, 1.0f / static_cast<float>(N), 1);
  EXPECT_EQ(fused, loss);
  EXPECT_EQ(d_fused, d_back);
  EXPECT_EQ(d_back, d32);
  double sum = 0;
  for (float l : losses) sum += l;
  EXPECT_EQ(loss, sum / static_cast<double>(N));
  EXPECT_NEAR(loss, reference_loss(z, y, V), 1e-6 * loss);
  EXPECT_EQ(0.0, cross_entropy(std::vector<float>{}, std::vector<Id>{}, V));
}

}  // namespace test_loss
