// Analogies (3CosAdd, 3CosMul), doesnt_match and their exclusions, on small tables whose answers are known,
// and against a direct computation of gensim's formulas on a random table.
#include <gtest/gtest.h>

#include <cmath>

#include "lumen/core/error.hpp"
#include "lumen/search/analogy.hpp"
#include "test_helpers.hpp"

using namespace lumen;
using namespace lumen::search;

namespace test_analogy {

// man, woman, king, queen, apple: king - man + woman = queen exactly in 3 dimensions.
Table royal() {
  Table t;
  const float rows[5][3] = {{1, 0, 0}, {1, 1, 0}, {1, 0, 1}, {1, 1, 1}, {0, -1, 0.2f}};
  t.E = Matrix(5, 3);
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t c = 0; c < 3; ++c) t.E.set(r, c, rows[r][c]);
  for (auto w : {"man", "woman", "king", "queen", "apple"}) t.vocab.add(w);
  return t;
}

std::vector<double> unit(const Searcher& s, Id id) {
  auto r = s.row(id);
  double n = 0;
  for (float x : r) n += double(x) * x;
  std::vector<double> u(r.begin(), r.end());
  for (auto& x : u) x /= std::sqrt(n);
  return u;
}
double cosd(const std::vector<double>& a, const std::vector<float>& b) {
  double ab = 0, bb = 0, aa = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ab += a[i] * b[i], bb += double(b[i]) * b[i], aa += a[i] * a[i];
  return ab / std::sqrt(aa * bb);
}

TEST(Analogy, KingManWomanQueen) {
  const Table t = royal();
  const Searcher s(t);
  AnalogyOptions o;
  o.k = 2;
  for (auto m : {AnalogyMethod::add, AnalogyMethod::mul}) {
    o.method = m;
    auto r = analogy(s, 0, 1, 2, o, Id{3});  // man : woman :: king : ?
    ASSERT_EQ(r.answers.size(), 2u);
    EXPECT_EQ(r.answers[0].id, 3);
    EXPECT_EQ(r.answers[1].id, 4);
    ASSERT_TRUE(r.rank.has_value());
    EXPECT_EQ(*r.rank, 1u);
    // An input word cannot be an answer while inputs are excluded.
    EXPECT_FALSE(analogy(s, 0, 1, 2, o, Id{2}).rank.has_value());
  }
}

TEST(Analogy, WithoutExclusionAnInputCanWin) {
  // b - a + c is nearest to c itself when b and a are close (the Nissim et al. caveat).
  Table t;
  t.E = Matrix(4, 2);
  const float rows[4][2] = {{1, 0}, {1, 0.05f}, {0, 1}, {0.7f, 0.7f}};
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 2; ++c) t.E.set(r, c, rows[r][c]);
  for (auto w : {"a", "b", "c", "x"}) t.vocab.add(w);
  const Searcher s(t);
  AnalogyOptions o;
  o.k = 4;
  o.exclude_inputs = false;
  auto raw = analogy(s, 0, 1, 2, o, Id{2});
  EXPECT_EQ(raw.answers[0].id, 2);
  EXPECT_EQ(raw.answers.size(), 4u);
  EXPECT_EQ(*raw.rank, 1u);
  o.exclude_inputs = true;
  auto ex = analogy(s, 0, 1, 2, o);
  ASSERT_EQ(ex.answers.size(), 1u);
  EXPECT_EQ(ex.answers[0].id, 3);
}

TEST(Analogy, MatchesGensimFormulasOnRandomTable) {
  const Table t = test::random_table(500, 20, DType::f32, 21, false);
  const Searcher s(t);
  const Id a = 3, b = 70, c = 123;
  const auto ua = unit(s, a), ub = unit(s, b), uc = unit(s, c);
  std::vector<double> v(20);
  for (std::size_t i = 0; i < 20; ++i) v[i] = ub[i] - ua[i] + uc[i];
  AnalogyOptions o;
  o.k = 5;
  auto add = analogy(s, a, b, c, o);
  o.method = AnalogyMethod::mul;
  auto mul = analogy(s, a, b, c, o);
  // Recompute every row's score in double, take the best five not among the inputs.
  std::vector<std::pair<double, Id>> sa, sm;
  for (Id r = 0; r < 500; ++r) {
    if (r == a || r == b || r == c) continue;
    const auto row = s.row(r);
    sa.push_back({-cosd(v, row), r});
    const double pb = (1 + cosd(ub, row)) / 2, pc = (1 + cosd(uc, row)) / 2, pa = (1 + cosd(ua, row)) / 2;
    sm.push_back({-(pb * pc / (pa + 1e-6)), r});
  }
  std::sort(sa.begin(), sa.end());
  std::sort(sm.begin(), sm.end());
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(add.answers[i].id, sa[i].second);
    EXPECT_NEAR(add.answers[i].score, -sa[i].first, 1e-5);
    EXPECT_EQ(mul.answers[i].id, sm[i].second);
    EXPECT_NEAR(mul.answers[i].score, -sm[i].first, 1e-5);
  }
  // The rank of an expected answer agrees with the list.
  o.method = AnalogyMethod::add;
  EXPECT_EQ(*analogy(s, a, b, c, o, sa[3].second).rank, 4u);
  o.method = AnalogyMethod::mul;
  EXPECT_EQ(*analogy(s, a, b, c, o, sm[2].second).rank, 3u);
  o.restrict_rows = 100;
  EXPECT_FALSE(analogy(s, a, b, c, o, Id{400}).rank.has_value());
}

TEST(Analogy, Errors) {
  const Table t = royal();
  const Searcher s(t);
  AnalogyOptions o;
  EXPECT_THROW(analogy(s, 0, 1, 9, o), IdError);
  o.k = 0;
  EXPECT_THROW(analogy(s, 0, 1, 2, o), UsageError);
  EXPECT_THROW(parse_analogy_method("sub"), UsageError);
  EXPECT_EQ(parse_analogy_method("3cosmul"), AnalogyMethod::mul);
  EXPECT_THROW(doesnt_match(s, {}), UsageError);
}

TEST(DoesntMatch, FarthestFromTheMean) {
  const Table t = royal();
  const Searcher s(t);
  auto r = doesnt_match(s, {0, 1, 4, 2});
  EXPECT_EQ(r.id, 4);
  ASSERT_EQ(r.by_distance.size(), 4u);
  EXPECT_EQ(r.by_distance[0].id, 4);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_LE(r.by_distance[i - 1].score, r.by_distance[i].score);
  EXPECT_THROW(doesnt_match(s, {2}), UsageError);  // one word is no question (the CLI and Python say so too)
}

}  // namespace test_analogy
