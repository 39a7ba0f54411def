// t-SNE: affinities, the Barnes-Hut gradient against the exact one, every kernel variant against the
// reference, and a whole run on data with clusters.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/project/honesty.hpp"
#include "lumen/project/tsne.hpp"

using namespace lumen;
using namespace lumen::project;

namespace test_tsne {

// `clusters` Gaussian blobs in D dimensions, far apart.
Matrix blobs(std::size_t n, std::size_t D, std::size_t clusters, std::uint64_t seed,
             std::vector<int>* label = nullptr) {
  Rng rng(seed);
  std::vector<double> centres(clusters * D);
  for (auto& c : centres) c = 8.0 * rng.normal();
  Matrix X(n, D);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = i % clusters;
    if (label) label->push_back(static_cast<int>(c));
    for (std::size_t j = 0; j < D; ++j) X.set(i, j, static_cast<float>(centres[c * D + j] + rng.normal()));
  }
  return X;
}

std::vector<float> random_map(std::size_t n, double scale, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> Y(2 * n);
  for (auto& y : Y) y = static_cast<float>(scale * rng.normal());
  return Y;
}

SparseP affinities_of(const Matrix& X, std::size_t k, double perplexity) {
  const Neighbours nb = exact_neighbours(X, k);
  return joint_affinities(nb, conditional_affinities(nb, perplexity));
}

TEST(Neighbours, ExactMatchesBruteForce) {
  const Matrix X = blobs(150, 7, 3, 1);
  const Neighbours nb = exact_neighbours(X, 5);
  for (std::size_t i = 0; i < 150; ++i) {
    std::vector<std::pair<double, int>> all;
    for (std::size_t j = 0; j < 150; ++j) {
      if (j == i) continue;
      double s = 0;
      for (std::size_t c = 0; c < 7; ++c) s += std::pow(X.at(i, c) - X.at(j, c), 2);
      all.emplace_back(s, static_cast<int>(j));
    }
    std::sort(all.begin(), all.end());
    for (std::size_t r = 0; r < 5; ++r) {
      EXPECT_EQ(nb.row(i)[r], all[r].second) << i << " rank " << r;
      EXPECT_NEAR(nb.row_dist2(i)[r], all[r].first, 1e-3 * (1 + all[r].first));
    }
  }
  EXPECT_THROW(exact_neighbours(X, 150), UsageError);
}

TEST(Affinities, EachRowHasThePerplexityAskedFor) {
  const Matrix X = blobs(200, 5, 2, 2);
  const Neighbours nb = exact_neighbours(X, 30);
  const std::vector<float> P = conditional_affinities(nb, 10.0);
  for (std::size_t i = 0; i < 200; ++i) {
    double sum = 0, H = 0;
    for (std::size_t j = 0; j < 30; ++j) {
      const double p = P[i * 30 + j];
      sum += p;
      if (p > 0) H -= p * std::log(p);
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_NEAR(std::exp(H), 10.0, 1e-3) << "row " << i;
  }
  EXPECT_THROW(conditional_affinities(nb, 31.0), UsageError);
  EXPECT_THROW(conditional_affinities(nb, 0.0), UsageError);
}

TEST(Affinities, JointIsSymmetricAndSumsToOne) {
  const SparseP P = affinities_of(blobs(120, 4, 3, 3), 15, 5.0);
  double sum = 0;
  auto value = [&](std::size_t i, std::int32_t j) -> double {
    for (std::size_t p = P.ptr[i]; p < P.ptr[i + 1]; ++p)
      if (P.col[p] == j) return P.val[p];
    return 0.0;
  };
  for (std::size_t i = 0; i < P.n; ++i)
    for (std::size_t p = P.ptr[i]; p < P.ptr[i + 1]; ++p) {
      sum += P.val[p];
      EXPECT_NE(P.col[p], static_cast<std::int32_t>(i));
      EXPECT_FLOAT_EQ(P.val[p],
                      static_cast<float>(value(static_cast<std::size_t>(P.col[p]), static_cast<std::int32_t>(i))));
    }
  EXPECT_NEAR(sum, 1.0, 1e-5);
}

TEST(TsneKernels, EveryVariantMatchesTheReference) {
  const auto& ref = tsne_kernels(Isa::generic);
  for (std::size_t n : {0, 1, 5, 15, 16, 17, 33, 100, 1001}) {
    std::vector<float> xs = random_map(n, 3.0, n + 1), ys = random_map(n, 3.0, n + 2);
    xs.resize(n);
    ys.resize(n);
    float rfx = 0.5f, rfy = -0.25f;
    const double rs = ref.repulse(xs.data(), ys.data(), n, 0.3f, -1.2f, &rfx, &rfy);
    const double rk = ref.kernel_sum(xs.data(), ys.data(), n, 0.3f, -1.2f);
    EXPECT_DOUBLE_EQ(rs, rk);
    for (Isa isa : available_isas()) {
      const auto& k = tsne_kernels(isa);
      float fx = 0.5f, fy = -0.25f;
      EXPECT_DOUBLE_EQ(k.repulse(xs.data(), ys.data(), n, 0.3f, -1.2f, &fx, &fy), rs) << isa_name(isa) << " n=" << n;
      EXPECT_FLOAT_EQ(fx, rfx) << isa_name(isa) << " n=" << n;
      EXPECT_FLOAT_EQ(fy, rfy) << isa_name(isa) << " n=" << n;
      EXPECT_DOUBLE_EQ(k.kernel_sum(xs.data(), ys.data(), n, 0.3f, -1.2f), rk) << isa_name(isa) << " n=" << n;
    }
  }
}

TEST(TsneGradient, BarnesHutWithSmallThetaEqualsExact) {
  const std::size_t n = 600;
  const SparseP P = affinities_of(blobs(n, 6, 4, 4), 30, 10.0);
  const std::vector<float> Y = random_map(n, 5.0, 9);
  std::vector<float> ge, gb, gh;
  const double Ze = tsne_gradient(P, Y, 1.0, 0.0, ge);
  const double Zb = tsne_gradient(P, Y, 1.0, 0.05, gb);
  const double Zh = tsne_gradient(P, Y, 1.0, 0.5, gh);
  EXPECT_NEAR(Zb, Ze, 1e-4 * Ze);
  double norm = 0, err_small = 0, err_half = 0;
  for (std::size_t c = 0; c < 2 * n; ++c) {
    norm += static_cast<double>(ge[c]) * ge[c];
    err_small += std::pow(static_cast<double>(gb[c]) - ge[c], 2);
    err_half += std::pow(static_cast<double>(gh[c]) - ge[c], 2);
  }
  EXPECT_LT(std::sqrt(err_small / norm), 1e-3);
  // theta = 0.5 is an approximation, but a close one.
  EXPECT_LT(std::sqrt(err_half / norm), 0.05);
  EXPECT_NEAR(Zh, Ze, 0.02 * Ze);
}

TEST(TsneGradient, ExactGradientMatchesFiniteDifferencesOfKl) {
  const std::size_t n = 40;
  const SparseP P = affinities_of(blobs(n, 3, 2, 5), 12, 4.0);
  std::vector<float> Y = random_map(n, 2.0, 3);
  std::vector<float> g;
  tsne_gradient(P, Y, 1.0, 0.0, g, 1);
  for (std::size_t c : {0u, 7u, 31u, 78u}) {
    const float h = 1e-2f, y0 = Y[c];
    Y[c] = y0 + h;
    const double up = tsne_kl(P, Y, 1);
    Y[c] = y0 - h;
    const double down = tsne_kl(P, Y, 1);
    Y[c] = y0;
    EXPECT_NEAR(g[c], (up - down) / (2 * h), 2e-3 + 0.02 * std::fabs(g[c])) << "coordinate " << c;
  }
}

TEST(Tsne, SeparatesClustersAndReportsKl) {
  std::vector<int> label;
  const Matrix X = blobs(400, 10, 4, 6, &label);
  TsneOptions o;
  o.perplexity = 15;
  o.iterations = 400;
  o.exact_below = 0;  // Barnes-Hut
  std::size_t calls = 0;
  o.progress = [&](const std::string&, std::size_t, std::size_t) { ++calls; };
  const TsneResult r = tsne(X, o);
  ASSERT_EQ(r.Y.size(), 800u);
  EXPECT_FALSE(r.exact_gradient);
  EXPECT_EQ(r.k, 45u);
  EXPECT_DOUBLE_EQ(r.learning_rate, 50.0);
  EXPECT_GT(calls, 10u);
  EXPECT_GT(r.kl, 0.0);
  EXPECT_LT(r.kl, 2.0);
  // Each point's 10 map neighbours are (nearly all) from its own cluster.
  std::vector<std::int32_t> all(400);
  for (int i = 0; i < 400; ++i) all[static_cast<std::size_t>(i)] = i;
  const Neighbours m = map_neighbours(r.Y, 400, all, 10);
  std::size_t same = 0;
  for (std::size_t i = 0; i < 400; ++i)
    for (std::size_t j = 0; j < 10; ++j) same += label[i] == label[static_cast<std::size_t>(m.row(i)[j])];
  EXPECT_GT(same, 3900u);
  // The map keeps a good share of the true neighbours, better than a random map does.
  const Neighbours original = select_rows(r.neighbours, all);
  const double kept = knn_preservation(original, m, 10);
  const Neighbours rnd = map_neighbours(random_map(400, 1.0, 1), 400, all, 10);
  EXPECT_GT(kept, 0.3);
  EXPECT_LT(knn_preservation(original, rnd, 10), 0.1);
  // The search's neighbours of some queries are the same lists (up to ties).
  const std::vector<std::int32_t> some{0, 17, 399};
  const Neighbours direct = query_neighbours(X, some, 10, false);
  EXPECT_DOUBLE_EQ(knn_preservation(select_rows(r.neighbours, some), direct, 10), 1.0);
  // Same seed, same map.
  const TsneResult again = tsne(X, o);
  EXPECT_EQ(again.Y, r.Y);
}

TEST(Tsne, ExactAndBarnesHutRunsReachSimilarKl) {
  const Matrix X = blobs(300, 8, 3, 8);
  TsneOptions o;
  o.perplexity = 10;
  o.iterations = 300;
  o.theta = 0.0;
  const TsneResult exact = tsne(X, o);
  EXPECT_TRUE(exact.exact_gradient);
  o.theta = 0.5;
  o.exact_below = 0;
  const TsneResult bh = tsne(X, o);
  EXPECT_FALSE(bh.exact_gradient);
  EXPECT_NEAR(bh.kl, exact.kl, 0.05 + 0.05 * exact.kl);
}

TEST(Tsne, FewPointsLowerThePerplexityAndBadOptionsThrow) {
  const Matrix X = blobs(10, 3, 2, 1);
  TsneOptions o;
  o.iterations = 50;
  const TsneResult r = tsne(X, o);
  EXPECT_DOUBLE_EQ(r.perplexity, 3.0);
  EXPECT_EQ(r.k, 9u);
  o.perplexity = -1;
  EXPECT_THROW(tsne(X, o), UsageError);
  o.perplexity = 30;
  o.theta = 2;
  EXPECT_THROW(tsne(X, o), UsageError);
  EXPECT_THROW(tsne(blobs(1, 3, 1, 1), TsneOptions{}), InputError);
}

}  // namespace test_tsne
