// The toy table behaves as the chapter says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lumen/core/toy.hpp"

using namespace lumen;

namespace test_toy {
std::vector<double> vec(const Table& t, const std::string& w) {
  const Id id = t.vocab.require(w);
  return {t.E.at(static_cast<std::size_t>(id), 0), t.E.at(static_cast<std::size_t>(id), 1)};
}
double cosine(const std::vector<double>& a, const std::vector<double>& b) {
  return (a[0] * b[0] + a[1] * b[1]) / (std::hypot(a[0], a[1]) * std::hypot(b[0], b[1]));
}
std::vector<double> unit(std::vector<double> v) {
  const double n = std::hypot(v[0], v[1]);
  return {v[0] / n, v[1] / n};
}
// The word nearest (by cosine) to `q`, the `exclude` words left out.
std::string nearest(const Table& t, const std::vector<double>& q, const std::vector<std::string>& exclude) {
  std::string best;
  double bs = -2;
  for (const auto& w : t.vocab.tokens()) {
    if (std::find(exclude.begin(), exclude.end(), w) != exclude.end()) continue;
    const double s = cosine(q, vec(t, w));
    if (s > bs) {
      bs = s;
      best = w;
    }
  }
  return best;
}

TEST(Toy, ShapeAndOrder) {
  const Table t = toy_table();
  EXPECT_EQ(t.V(), 30u);
  EXPECT_EQ(t.d(), 2u);
  EXPECT_EQ(t.vocab.size(), 30u);
  EXPECT_TRUE(t.vocab.has_counts());
  for (Id i = 1; i < 30; ++i) EXPECT_GE(t.vocab.count(i - 1), t.vocab.count(i));
  EXPECT_EQ(t.source, "toy");
}

TEST(Toy, LimitAndDtype) {
  const Table t = toy_table(5, DType::bf16);
  EXPECT_EQ(t.V(), 5u);
  EXPECT_EQ(t.vocab.size(), 5u);
  EXPECT_EQ(t.E.dtype(), DType::bf16);
  EXPECT_EQ(t.vocab.token(0), toy_table().vocab.token(0));
  EXPECT_EQ(toy_table(0, DType::f32).V(), 30u);
}

TEST(Toy, CatIsCloserToDogThanToParliament) {
  const Table t = toy_table();
  EXPECT_GT(cosine(vec(t, "cat"), vec(t, "dog")), cosine(vec(t, "cat"), vec(t, "parliament")));
  EXPECT_GT(cosine(vec(t, "cat"), vec(t, "dog")), 0.95);
  EXPECT_LT(cosine(vec(t, "cat"), vec(t, "parliament")), 0.0);
}

TEST(Toy, KingMinusManPlusWomanIsQueen) {
  const Table t = toy_table();
  const std::vector<std::string> in{"king", "man", "woman"};
  auto k = vec(t, "king"), m = vec(t, "man"), w = vec(t, "woman");
  // Raw vectors (the chapter's arithmetic) and unit-normalised ones (3CosAdd as word2vec and gensim do it).
  EXPECT_EQ(nearest(t, {k[0] - m[0] + w[0], k[1] - m[1] + w[1]}, in), "queen");
  k = unit(k), m = unit(m), w = unit(w);
  EXPECT_EQ(nearest(t, {k[0] - m[0] + w[0], k[1] - m[1] + w[1]}, in), "queen");
  // Without excluding the inputs, the nearest word to the normalised sum is still not an input here.
  EXPECT_EQ(nearest(t, {k[0] - m[0] + w[0], k[1] - m[1] + w[1]}, {}), "queen");
}

TEST(Toy, ClustersAreTheNearestNeighbours) {
  const Table t = toy_table();
  const std::vector<std::pair<std::string, std::vector<std::string>>> groups = {
      {"animal", {"cat", "dog", "kitten", "puppy", "horse", "cow", "mouse", "bird"}},
      {"food", {"bread", "cheese", "apple", "rice", "soup", "cake"}},
      {"place", {"paris", "london", "city", "village"}},
      {"politics", {"parliament", "government", "election", "law"}},
      {"people", {"man", "woman", "king", "queen", "boy", "girl", "prince", "princess"}}};
  for (const auto& [name, words] : groups)
    for (const auto& w : words) {
      const std::string nb = nearest(t, vec(t, w), {w});
      EXPECT_NE(std::find(words.begin(), words.end(), nb), words.end()) << w << " -> " << nb << " (" << name << ")";
    }
}

}  // namespace test_toy
