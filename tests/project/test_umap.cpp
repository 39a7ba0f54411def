// UMAP: the a/b curve against umap-learn's values, a run on data with clusters (neighbours kept, clusters apart),
// determinism for a seed, and the bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/project/honesty.hpp"
#include "lumen/project/map.hpp"
#include "lumen/project/neighbours.hpp"
#include "lumen/project/umap.hpp"

using namespace lumen;
using namespace lumen::project;

namespace test_umap {

// `clusters` Gaussian blobs in D dimensions, far apart; label[i] = i % clusters.
Matrix blobs(std::size_t n, std::size_t D, std::size_t clusters, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> centres(clusters * D);
  for (auto& c : centres) c = 8.0 * rng.normal();
  Matrix X(n, D);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < D; ++j) X.set(i, j, static_cast<float>(centres[(i % clusters) * D + j] + rng.normal()));
  return X;
}

UmapOptions quick(std::uint64_t seed = 1) {
  UmapOptions o;
  o.seed = seed;
  o.epochs = 200;
  o.threads = 1;
  return o;
}

TEST(Umap, CurveMatchesUmapLearn) {
  double a = 0, b = 0;
  fit_ab(0.1, 1.0, a, b);  // umap-learn 0.5 find_ab_params(1.0, 0.1): a 1.5769, b 0.8951
  EXPECT_NEAR(a, 1.5769, 0.01);
  EXPECT_NEAR(b, 0.8951, 0.01);
  fit_ab(0.5, 1.0, a, b);  // find_ab_params(1.0, 0.5): a 0.5830, b 1.3342
  EXPECT_NEAR(a, 0.5830, 0.01);
  EXPECT_NEAR(b, 1.3342, 0.01);
  EXPECT_THROW(fit_ab(2.0, 1.0, a, b), UsageError);
  EXPECT_THROW(fit_ab(0.1, 0.0, a, b), UsageError);
}

TEST(Umap, KeepsNeighboursAndSeparatesClusters) {
  const std::size_t n = 600, clusters = 5;
  const Matrix X = blobs(n, 20, clusters, 3);
  const UmapResult r = umap(X, quick());
  ASSERT_EQ(r.Y.size(), 2 * n);
  EXPECT_TRUE(r.spectral);
  for (const float v : r.Y) ASSERT_TRUE(std::isfinite(v));
  // Clusters apart: each point's nearest map neighbour is in its own cluster.
  std::size_t same = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = INFINITY;
    std::size_t at = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = r.Y[2 * i] - r.Y[2 * j], dy = r.Y[2 * i + 1] - r.Y[2 * j + 1];
      if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, at = j;
    }
    same += at % clusters == i % clusters;
  }
  EXPECT_GT(same, n * 98 / 100);
  // Neighbours kept: far above what a random map keeps (10 / 600 within a cluster of 120: ~8%).
  const auto sample = sample_points(n, n, 1);
  const Neighbours original = query_neighbours(X, sample, 10, false, 1);
  const Neighbours mapped = map_neighbours(r.Y, n, sample, 10, 1);
  EXPECT_GT(knn_preservation(original, mapped, 10), 0.25);
}

TEST(Umap, DeterministicForASeedAtOneThread) {
  const Matrix X = blobs(300, 10, 3, 5);
  const UmapResult a = umap(X, quick(7)), b = umap(X, quick(7)), c = umap(X, quick(8));
  EXPECT_EQ(a.Y, b.Y);
  EXPECT_NE(a.Y, c.Y);
}

TEST(Umap, BadArgumentsAreClearErrors) {
  const Matrix X = blobs(20, 4, 2, 1);
  UmapOptions o = quick();
  o.neighbors = 50;
  try {
    umap(X, o);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("the map has 20 points"), std::string::npos) << e.what();
  }
  o.neighbors = 1;
  EXPECT_THROW(umap(X, o), UsageError);
  o.neighbors = 5;
  o.min_dist = -1;
  EXPECT_THROW(umap(X, o), UsageError);
  EXPECT_THROW(umap(Matrix(2, 4), quick()), InputError);
}

TEST(Umap, MapWithHonestyNumbersAndSeeds) {
  const Matrix X = blobs(200, 8, 4, 9);
  MapOptions o;
  o.method = Method::umap;
  o.seeds = 2;
  o.threads = 1;
  o.epochs = 100;
  o.neighbors = 10;
  const Map m = make_map(X, o);
  EXPECT_EQ(m.xy.size(), 400u);
  EXPECT_EQ(m.seeds, (std::vector<std::uint64_t>{1, 2}));
  ASSERT_EQ(m.preservation.size(), 2u);
  EXPECT_GT(m.preservation[0], 0.2);
  EXPECT_GE(m.agreement, 0.0);
  EXPECT_LE(m.agreement, 1.0);
  EXPECT_NEAR(m.a, 1.5769, 0.01);
  const auto caption = describe(m);
  EXPECT_NE(caption[0].find("UMAP of 200 points: 10 neighbours"), std::string::npos) << caption[0];
  EXPECT_EQ(parse_method("umap"), Method::umap);
  EXPECT_STREQ(method_name(Method::umap), "umap");
}

TEST(Umap, SeveralThreadsShareTheLayoutAndStillSeparateClusters) {
  const std::size_t n = 600, clusters = 5;
  const Matrix X = blobs(n, 20, clusters, 3);
  UmapOptions o = quick();
  o.threads = 2;
  const UmapResult r = umap(X, o);
  for (const float v : r.Y) ASSERT_TRUE(std::isfinite(v));
  const auto sample = sample_points(n, n, 1);
  const Neighbours original = query_neighbours(X, sample, 10, false, 1);
  const double shared = knn_preservation(original, map_neighbours(r.Y, n, sample, 10, 1), 10);
  EXPECT_GT(shared, 0.25);
  // The threads read the tails and the repelling points as they were at the start of a round (a quarter epoch):
  // the map keeps as many neighbours as the one-thread layout, which reads everything live.
  o.threads = 1;
  const UmapResult one = umap(X, o);
  EXPECT_GT(shared, knn_preservation(original, map_neighbours(one.Y, n, sample, 10, 1), 10) - 0.05);
}

TEST(Umap, HnswGraphAboveTheThresholdFindsTheExactNeighboursNearlyAll) {
  const std::size_t n = 800, k = 14;
  const Matrix X = blobs(n, 16, 6, 11);
  const Neighbours exact = exact_neighbours(X, k, 1);
  const Neighbours approx = hnsw_neighbours(X, k, 1);
  ASSERT_EQ(approx.n, n);
  ASSERT_EQ(approx.k, k);
  std::size_t found = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      ASSERT_NE(approx.row(i)[j], static_cast<std::int32_t>(i));  // never itself
      if (j > 0) {
        ASSERT_LE(approx.row_dist2(i)[j - 1], approx.row_dist2(i)[j]);
      }
      found += std::count(exact.row(i), exact.row(i) + k, approx.row(i)[j]);
    }
  }
  EXPECT_GT(static_cast<double>(found) / static_cast<double>(n * k), 0.97);  // recall
  // The threshold picks the graph; a forced choice wins; the map is as good either way.
  UmapOptions o = quick();
  o.exact_up_to = 500;
  const UmapResult by_hnsw = umap(X, o);
  EXPECT_TRUE(by_hnsw.hnsw);
  o.knn = "exact";
  const UmapResult by_exact = umap(X, o);
  EXPECT_FALSE(by_exact.hnsw);
  const auto sample = sample_points(n, n, 1);
  const Neighbours original = query_neighbours(X, sample, 10, false, 1);
  const double kept_h = knn_preservation(original, map_neighbours(by_hnsw.Y, n, sample, 10, 1), 10);
  const double kept_e = knn_preservation(original, map_neighbours(by_exact.Y, n, sample, 10, 1), 10);
  EXPECT_GT(kept_h, kept_e - 0.05) << kept_h << " vs " << kept_e;
  o.knn = "nndescent";
  EXPECT_THROW(umap(X, o), UsageError);
}

}  // namespace test_umap
