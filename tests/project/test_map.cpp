#include <gtest/gtest.h>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/toy.hpp"
#include "lumen/project/map.hpp"

using namespace lumen;
using namespace lumen::project;

TEST(Map, PcaOfTheToyTableKeepsAllTheVariance) {
  const Table t = toy_table();
  MapOptions o;
  const Map m = make_map(t.E, o);
  ASSERT_EQ(m.rows.size(), 30u);
  ASSERT_EQ(m.variance_ratio.size(), 2u);
  EXPECT_NEAR(m.variance_ratio[0] + m.variance_ratio[1], 1.0, 1e-6);
  EXPECT_EQ(m.k, 10u);
  ASSERT_EQ(m.preservation.size(), 1u);
  EXPECT_GT(m.preservation[0], 0.4);  // cosine neighbours vs Euclidean map neighbours: close, not equal
  EXPECT_LT(m.agreement, 0);
  const auto lines = describe(m);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NE(lines[0].find("100.0% of the variance"), std::string::npos) << lines[0];
}

// A table of d = 2 is its own map: the rows as they are, in the order asked, and nothing else is.
TEST(Map, IdentityShowsATwoDimensionalTableAsItIs) {
  const Table t = toy_table();
  MapOptions o;
  o.method = parse_method("identity");
  o.rows = {5, 2, 9};
  const Map m = make_map(t.E, o);
  EXPECT_STREQ(method_name(m.method), "identity");
  ASSERT_EQ(m.xy.size(), 6u);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(m.xy[2 * i + c], t.E.at(static_cast<std::size_t>(o.rows[i]), c));
  EXPECT_TRUE(m.preservation.empty());
  EXPECT_EQ(describe(m).size(), 1u);
  Matrix wide(10, 3);
  EXPECT_THROW(make_map(wide, o), UsageError);
}

TEST(Map, TsneWithASmallPerplexityStillComparesTenNeighbours) {
  // Perplexity 2: t-SNE's own lists hold 3 x 2 = 6 neighbours, fewer than the honesty numbers' k = 10.
  const Table t = toy_table();
  MapOptions o;
  o.method = Method::tsne;
  o.perplexity = 2;
  o.iterations = 300;
  const Map m = make_map(t.E, o);
  EXPECT_EQ(m.k, 10u);
  ASSERT_EQ(m.preservation.size(), 1u);
  EXPECT_GT(m.preservation[0], 0.0);
}

TEST(Map, TsneWithSeveralSeedsReportsAgreement) {
  Rng rng(2);
  Matrix E(240, 8);
  for (std::size_t i = 0; i < 240; ++i)
    for (std::size_t c = 0; c < 8; ++c) E.set(i, c, static_cast<float>((i % 3 == c % 3 ? 5.0 : 0.0) + rng.normal()));
  MapOptions o;
  o.method = Method::tsne;
  o.perplexity = 10;
  o.iterations = 300;
  o.seeds = 3;
  o.random_init = true;
  o.sample = 100;
  o.rows.resize(200);
  for (Id i = 0; i < 200; ++i) o.rows[static_cast<std::size_t>(i)] = i + 40;
  const Map m = make_map(E, o);
  EXPECT_EQ(m.rows.front(), 40);
  EXPECT_EQ(m.xy.size(), 400u);
  EXPECT_EQ(m.kl.size(), 3u);
  EXPECT_EQ(m.seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(m.sampled, 100u);
  EXPECT_GE(m.agreement, 0.0);
  EXPECT_LE(m.agreement, 1.0);
  EXPECT_EQ(m.preservation.size(), 3u);
  const auto lines = describe(m);
  EXPECT_NE(lines[2].find("3 seeds"), std::string::npos) << lines[2];
  o.rows = {0, 1};
  EXPECT_THROW(make_map(E, o), InputError);
  o.rows = {0, 1, 240};
  EXPECT_THROW(make_map(E, o), IdError);
  EXPECT_THROW(parse_method("isomap"), UsageError);
}
