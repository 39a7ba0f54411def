// Embedding: init, gather, bad ids, padding_idx, max_norm, sqrt(d) scale, deterministic backward.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/embedding.hpp"

using namespace lumen;
using namespace lumen::nn;

namespace test_embedding {
std::vector<Id> random_ids(std::size_t n, std::size_t V, std::uint64_t seed) {
  Rng r(seed);
  std::vector<Id> ids(n);
  for (auto& i : ids) i = static_cast<Id>(r.below(V));
  return ids;
}
std::vector<float> randn(std::size_t n, std::uint64_t seed) {
  Rng r(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(r.normal());
  return v;
}
bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

TEST(Embedding, InitIsDeterministicForASeedAndHasTheRequestedStd) {
  Embedding a(500, 64), b(500, 64), c(500, 64);
  a.init_normal(0.02f, 7);
  b.init_normal(0.02f, 7);
  c.init_normal(0.02f, 8);
  EXPECT_TRUE(same_bits(a.E().f32().data(), b.E().f32().data(), a.E().size()));
  EXPECT_FALSE(same_bits(a.E().f32().data(), c.E().f32().data(), a.E().size()));
  double ss = 0, sum = 0;
  for (float x : a.E().f32()) {
    ss += static_cast<double>(x) * x;
    sum += x;
  }
  const double n = static_cast<double>(a.E().size());
  EXPECT_NEAR(std::sqrt(ss / n - (sum / n) * (sum / n)), 0.02, 0.0005);
  EXPECT_NEAR(sum / n, 0.0, 0.0005);
}

TEST(Embedding, ForwardIsARowGather) {
  Embedding emb(100, 24);
  emb.init_normal(0.02f, 1);
  const std::size_t B = 3, T = 5;
  auto ids = random_ids(B * T, 100, 2);
  Matrix out = emb.forward(ids, B, T);
  ASSERT_EQ(out.rows(), B * T);
  ASSERT_EQ(out.cols(), 24u);
  for (std::size_t p = 0; p < B * T; ++p)
    EXPECT_TRUE(same_bits(out.row(p).data(), emb.E().row(static_cast<std::size_t>(ids[p])).data(), 24)) << p;
}

TEST(Embedding, ForwardGivesTheSameBitsForAnyThreadCount) {
  Embedding emb(3000, 128);  // big enough to go parallel
  emb.init_normal(0.02f, 3);
  auto ids = random_ids(4 * 1024, 3000, 4);
  Matrix ref = emb.forward(ids, 4, 1024, 1);
  for (std::size_t th : {2, 3, 5, 8}) {
    Matrix out = emb.forward(ids, 4, 1024, th);
    EXPECT_TRUE(same_bits(ref.f32().data(), out.f32().data(), ref.size())) << th << " threads";
  }
}

TEST(Embedding, BadIdThrowsNamingIdAndPositionAndWritesNothing) {
  Embedding emb(10, 4, {.max_norm = 0.01f});
  emb.init_normal(1.0f, 5);
  Matrix before = emb.E().clone();
  std::vector<Id> ids = {1, 2, 3, 10, 4, 5};
  std::vector<float> out(ids.size() * 4, 42.0f);
  try {
    emb.forward(ids, 2, 3, out);
    FAIL() << "expected IdError";
  } catch (const IdError& e) {
    EXPECT_EQ(e.id(), 10);
    EXPECT_EQ(e.position(), 3u);
    EXPECT_NE(std::string(e.what()).find("10"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("position 3"), std::string::npos);
  }
  for (float x : out) EXPECT_EQ(x, 42.0f);                                           // output untouched
  EXPECT_TRUE(same_bits(before.f32().data(), emb.E().f32().data(), before.size()));  // no renorm happened

  std::vector<Id> neg = {0, -1};
  try {
    emb.forward(neg, 1, 2, std::span<float>(out.data(), 8));
    FAIL() << "expected IdError";
  } catch (const IdError& e) {
    EXPECT_EQ(e.id(), -1);
    EXPECT_EQ(e.position(), 1u);
  }
  // backward refuses the same way, and leaves dE alone.
  std::vector<float> dY(ids.size() * 4, 1.0f);
  EXPECT_THROW(emb.backward(ids, dY), IdError);
  for (float x : emb.dE().f32()) EXPECT_EQ(x, 0.0f);
}

TEST(Embedding, ShapeMismatchIsAUsageError) {
  Embedding emb(10, 4);
  std::vector<Id> ids = {1, 2, 3};
  std::vector<float> out(12);
  EXPECT_THROW(emb.forward(ids, 2, 2, out), UsageError);
  std::vector<float> small(8);
  EXPECT_THROW(emb.forward(ids, 1, 3, small), UsageError);
  EXPECT_THROW(Embedding(0, 4), UsageError);
  EXPECT_THROW(Embedding(4, 4, {.padding_idx = 4}), UsageError);
  EXPECT_THROW(Embedding(4, 4, {.max_norm = 0.0f}), UsageError);
}

TEST(Embedding, BackwardScattersAndAccumulates) {
  const std::size_t V = 7, d = 3;
  Embedding emb(V, d);
  std::vector<Id> ids = {2, 5, 2, 0};
  auto dY = randn(ids.size() * d, 9);
  emb.backward(ids, dY);
  emb.backward(ids, dY);  // accumulates
  for (std::size_t v = 0; v < V; ++v)
    for (std::size_t j = 0; j < d; ++j) {
      float want = 0;
      for (int rep = 0; rep < 2; ++rep)
        for (std::size_t p = 0; p < ids.size(); ++p)
          if (static_cast<std::size_t>(ids[p]) == v) want += dY[p * d + j];
      EXPECT_NEAR(emb.dE().at(v, j), want, 1e-6f) << v << "," << j;
    }
  emb.zero_grad();
  for (float x : emb.dE().f32()) EXPECT_EQ(x, 0.0f);
}

TEST(Embedding, BackwardIsBitIdenticalWhateverTheThreadCount) {
  // Many repeats of few ids (a Zipf-like batch) so rows straddle thread boundaries.
  const std::size_t V = 50, d = 96, B = 8, T = 512;
  Rng r(11);
  std::vector<Id> ids(B * T);
  for (auto& i : ids) i = static_cast<Id>(r.below(V) * r.uniform());
  auto dY = randn(B * T * d, 12);
  Embedding ref(V, d);
  ref.backward(ids, dY, 1);
  for (std::size_t th : {2, 3, 4, 7, 16}) {
    Embedding emb(V, d);
    emb.backward(ids, dY, th);
    EXPECT_TRUE(same_bits(ref.dE().f32().data(), emb.dE().f32().data(), V * d)) << th << " threads";
  }
  // And the sum order is ascending position: the same bits as a plain loop.
  std::vector<float> plain(V * d, 0.0f);
  for (std::size_t p = 0; p < ids.size(); ++p)
    for (std::size_t j = 0; j < d; ++j) plain[static_cast<std::size_t>(ids[p]) * d + j] += dY[p * d + j];
  EXPECT_TRUE(same_bits(ref.dE().f32().data(), plain.data(), V * d));
}

TEST(Embedding, PaddingRowStartsAtZeroAndGetsNoGradient) {
  Embedding emb(6, 4, {.padding_idx = 2});
  emb.init_normal(0.5f, 3);
  for (float x : emb.E().row(2)) EXPECT_EQ(x, 0.0f);
  for (float x : emb.E().row(1)) EXPECT_NE(x, 0.0f);
  std::vector<Id> ids = {2, 1, 2, 3};
  Matrix out = emb.forward(ids, 1, 4);
  for (float x : out.row(0)) EXPECT_EQ(x, 0.0f);
  std::vector<float> dY(16, 1.0f);
  emb.backward(ids, dY, 2);
  for (float x : emb.dE().row(2)) EXPECT_EQ(x, 0.0f);
  for (float x : emb.dE().row(1)) EXPECT_EQ(x, 1.0f);
  // Negative padding_idx counts from the end, as in PyTorch.
  Embedding neg(6, 4, {.padding_idx = -1});
  EXPECT_EQ(*neg.options().padding_idx, 5);
}

TEST(Embedding, MaxNormRenormalisesLookedUpRowsInPlace) {
  const std::size_t V = 5, d = 4;
  Embedding emb(V, d, {.max_norm = 1.0f});
  emb.init_normal(1.0f, 21);  // norms about 2
  Matrix before = emb.E().clone();
  auto norm = [&](const Matrix& m, std::size_t r) {
    double s = 0;
    for (float x : m.row(r)) s += static_cast<double>(x) * x;
    return std::sqrt(s);
  };
  std::vector<Id> ids = {1, 3, 1};
  Matrix out = emb.forward(ids, 1, 3);
  for (std::size_t r = 0; r < V; ++r) {
    const double n0 = norm(before, r);
    const bool looked_up = r == 1 || r == 3;
    if (looked_up && n0 > 1.0) {
      const float scale = static_cast<float>(1.0 / (n0 + 1e-7));  // PyTorch's rule
      for (std::size_t j = 0; j < d; ++j) EXPECT_FLOAT_EQ(emb.E().at(r, j), before.at(r, j) * scale);
      EXPECT_NEAR(norm(emb.E(), r), 1.0, 1e-5);
    } else {
      EXPECT_TRUE(same_bits(before.row(r).data(), emb.E().row(r).data(), d)) << "row " << r << " must not change";
    }
  }
  EXPECT_TRUE(same_bits(out.row(0).data(), emb.E().row(1).data(), d));  // output is the renormalised row
  EXPECT_TRUE(same_bits(out.row(2).data(), emb.E().row(1).data(), d));
  // A row already inside the ball is untouched.
  Embedding small(2, 4, {.max_norm = 10.0f});
  small.init_normal(0.1f, 1);
  Matrix b2 = small.E().clone();
  std::vector<Id> one = {0};
  small.forward(one, 1, 1);
  EXPECT_TRUE(same_bits(b2.f32().data(), small.E().f32().data(), 8));
}

TEST(Embedding, SqrtDScaleMultipliesOutputAndGradient) {
  const std::size_t d = 16;
  Embedding emb(10, d, {.scale_sqrt_d = true});
  emb.init_normal(0.02f, 4);
  EXPECT_FLOAT_EQ(emb.output_scale(), 4.0f);
  std::vector<Id> ids = {3, 7};
  Matrix out = emb.forward(ids, 2, 1);
  for (std::size_t j = 0; j < d; ++j) EXPECT_EQ(out.at(1, j), emb.E().at(7, j) * 4.0f);
  std::vector<float> dY(2 * d, 0.5f);
  emb.backward(ids, dY);
  for (std::size_t j = 0; j < d; ++j) EXPECT_EQ(emb.dE().at(3, j), 2.0f);
}

TEST(Embedding, WrapsAnExistingTableAndConvertsNarrowTypes) {
  Matrix E(4, 3, DType::f32);
  for (std::size_t i = 0; i < 12; ++i) E.set(i / 3, i % 3, static_cast<float>(i) * 0.5f);
  Matrix h = E.to(DType::bf16);
  Embedding emb(std::move(h));
  EXPECT_EQ(emb.E().dtype(), DType::f32);
  std::vector<Id> ids = {2};
  Matrix out = emb.forward(ids, 1, 1);
  EXPECT_EQ(out.at(0, 1), 3.5f);
  // A borrowed table can be read but not renormalised or initialised.
  Embedding view(Matrix::borrow(E.data(), 4, 3, DType::f32), {.max_norm = 0.1f});
  EXPECT_THROW(view.forward(ids, 1, 1), Error);
  EXPECT_THROW(view.init_normal(), Error);
}

}  // namespace test_embedding
