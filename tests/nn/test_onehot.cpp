// The one-hot path really multiplies, and gives exactly the rows forward gathers.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/onehot.hpp"

using namespace lumen;
using namespace lumen::nn;

TEST(OneHot, HasOneOnePerRowAtTheId) {
  std::vector<Id> ids = {3, 0, 3};
  Matrix X = onehot(ids, 5);
  ASSERT_EQ(X.rows(), 3u);
  ASSERT_EQ(X.cols(), 5u);
  for (std::size_t n = 0; n < 3; ++n)
    for (std::size_t v = 0; v < 5; ++v) EXPECT_EQ(X.at(n, v), static_cast<Id>(v) == ids[n] ? 1.0f : 0.0f);
  std::vector<Id> bad = {1, 5};
  EXPECT_THROW(onehot(bad, 5), IdError);
}

TEST(OneHot, EmbedViaOneHotEqualsForwardExactly) {
  for (std::size_t threads : {1, 2}) {
    const std::size_t V = 1000, d = 72, B = 4, T = 33;
    Embedding emb(V, d);
    emb.init_normal(0.02f, 17);
    Rng r(18);
    std::vector<Id> ids(B * T);
    for (auto& i : ids) i = static_cast<Id>(r.below(V));
    Matrix gathered = emb.forward(ids, B, T);
    Matrix via = embed_via_onehot(emb.E(), ids, threads);
    ASSERT_EQ(via.rows(), B * T);
    ASSERT_EQ(via.cols(), d);
    for (std::size_t i = 0; i < via.size(); ++i) ASSERT_EQ(via.f32()[i], gathered.f32()[i]) << i;
  }
}

TEST(OneHot, WorksOnNarrowTablesAndRejectsBadIds) {
  Embedding emb(50, 8);
  emb.init_normal(0.3f, 2);
  Matrix h = emb.E().to(DType::f16);
  std::vector<Id> ids = {7, 49, 0};
  Matrix via = embed_via_onehot(h, ids);
  std::vector<float> row(8);
  for (std::size_t n = 0; n < ids.size(); ++n) {
    h.row_f32(static_cast<std::size_t>(ids[n]), row.data());
    for (std::size_t j = 0; j < 8; ++j) EXPECT_EQ(via.at(n, j), row[j]);
  }
  std::vector<Id> bad = {1, -3};
  try {
    embed_via_onehot(h, bad);
    FAIL();
  } catch (const IdError& e) {
    EXPECT_EQ(e.id(), -3);
    EXPECT_EQ(e.position(), 1u);
  }
}
