// The learned positional table and GPT-2's token + position input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/input_layer.hpp"

using namespace lumen;
using namespace lumen::nn;

TEST(Positional, InitHasStd001ByDefault) {
  PositionalEmbedding pos(1024, 64);
  pos.init_normal();
  double ss = 0;
  for (float x : pos.P().f32()) ss += static_cast<double>(x) * x;
  EXPECT_NEAR(std::sqrt(ss / static_cast<double>(pos.P().size())), 0.01, 0.0003);
}

TEST(InputLayer, ForwardIsTokenPlusPosition) {
  const std::size_t V = 20, d = 8, ctx = 6, B = 2, T = 4;
  InputLayer in(V, d, ctx);
  in.init(3);
  std::vector<Id> ids = {1, 5, 5, 19, 0, 2, 3, 1};
  std::vector<float> x(B * T * d);
  in.forward(ids, B, T, x);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t j = 0; j < d; ++j) {
        const float want = in.token().E().at(static_cast<std::size_t>(ids[b * T + t]), j) + in.position().P().at(t, j);
        EXPECT_EQ(x[(b * T + t) * d + j], want);
      }
  // The two tables were drawn from different streams.
  EXPECT_NE(in.token().E().at(0, 0) * 0.5f, in.position().P().at(0, 0));
}

TEST(InputLayer, BackwardFillsBothTablesDeterministically) {
  const std::size_t V = 9, d = 5, ctx = 16, B = 3, T = 16;
  Rng r(4);
  std::vector<Id> ids(B * T);
  for (auto& i : ids) i = static_cast<Id>(r.below(V));
  std::vector<float> dX(B * T * d);
  for (auto& g : dX) g = static_cast<float>(r.normal());
  InputLayer one(V, d, ctx), many(V, d, ctx);
  one.backward(ids, dX, B, T, 1);
  many.backward(ids, dX, B, T, 4);
  EXPECT_EQ(std::memcmp(one.position().dP().data(), many.position().dP().data(), one.position().dP().bytes()), 0);
  EXPECT_EQ(std::memcmp(one.token().dE().data(), many.token().dE().data(), one.token().dE().bytes()), 0);
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t j = 0; j < d; ++j) {
      float want = 0;
      for (std::size_t b = 0; b < B; ++b) want += dX[(b * T + t) * d + j];
      EXPECT_EQ(one.position().dP().at(t, j), want);
    }
}

TEST(InputLayer, TooLongOrBadIdsWriteNothing) {
  InputLayer in(5, 2, 3);
  in.init(1);
  std::vector<Id> ids = {0, 1, 2, 3};
  std::vector<float> x(8, 7.0f);
  EXPECT_THROW(in.forward(ids, 1, 4, x), InputError);
  for (float v : x) EXPECT_EQ(v, 7.0f);
  std::vector<Id> bad = {0, 9};
  std::vector<float> x2(4, 7.0f);
  EXPECT_THROW(in.forward(bad, 1, 2, x2), IdError);
  for (float v : x2) EXPECT_EQ(v, 7.0f);
  EXPECT_THROW(in.backward(bad, x2, 1, 2), IdError);
  for (float v : in.position().dP().f32()) EXPECT_EQ(v, 0.0f);
}
