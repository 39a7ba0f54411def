// Anisotropy against plain references: every pair's cosine in double for a small set, a planted dominant direction,
// and an isotropic cloud; rows that cannot take part, determinism, and the baseline adjustment.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/project/anisotropy.hpp"
#include "lumen/project/anisotropy_json.hpp"

using namespace lumen;
using namespace lumen::project;

namespace test_anisotropy {

Matrix gaussian(std::size_t n, std::size_t d, std::uint64_t seed, double offset = 0, double spike = 0) {
  Rng rng(seed);
  Matrix X(n, d);
  for (std::size_t i = 0; i < n; ++i) {
    const double z = rng.normal();
    for (std::size_t c = 0; c < d; ++c)
      X.set(i, c, static_cast<float>(rng.normal() + offset + (c == 0 ? spike * z : 0.0)));
  }
  return X;
}

double cosine(const Matrix& X, std::size_t i, std::size_t j) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t c = 0; c < X.cols(); ++c) {
    const double a = X.at(i, c), b = X.at(j, c);
    ab += a * b, aa += a * a, bb += b * b;
  }
  return ab / std::sqrt(aa * bb);
}

TEST(Anisotropy, FewRowsUseEveryPairAndMatchTheReference) {
  const Matrix X = gaussian(40, 16, 3, 0.7);
  const Anisotropy a = anisotropy(X);
  EXPECT_TRUE(a.all_pairs);
  EXPECT_EQ(a.rows, 40u);
  ASSERT_EQ(a.pairs, 40u * 39u / 2u);
  double sum = 0, ss = 0;
  std::vector<double> all;
  for (std::size_t i = 0; i < 40; ++i)
    for (std::size_t j = i + 1; j < 40; ++j) all.push_back(cosine(X, i, j)), sum += all.back();
  const double mean = sum / static_cast<double>(all.size());
  for (double c : all) ss += (c - mean) * (c - mean);
  EXPECT_NEAR(a.mean_cosine, mean, 1e-6);
  EXPECT_NEAR(a.std_cosine, std::sqrt(ss / static_cast<double>(all.size())), 1e-6);
  // A common offset of 0.7 per coordinate: cos ~ 0.49 / (1 + 0.49) on average.
  EXPECT_NEAR(a.mean_cosine, 0.49 / 1.49, 0.05);
}

TEST(Anisotropy, SampledPairsAreTheOnesReported) {
  const Matrix X = gaussian(500, 8, 5, 0.3);
  AnisotropyOptions o;
  o.pairs = 2000;
  o.keep_pairs = true;
  const Anisotropy a = anisotropy(X, o);
  EXPECT_FALSE(a.all_pairs);
  ASSERT_EQ(a.pair_ids.size(), 2000u);
  double sum = 0;
  for (const auto& p : a.pair_ids) {
    EXPECT_NE(p[0], p[1]);
    sum += cosine(X, static_cast<std::size_t>(p[0]), static_cast<std::size_t>(p[1]));
  }
  EXPECT_NEAR(a.mean_cosine, sum / 2000.0, 1e-6);
}

TEST(Anisotropy, IsotropicAgainstOneDominantDirection) {
  const std::size_t d = 32;
  const Anisotropy iso = anisotropy(gaussian(4000, d, 7));
  EXPECT_NEAR(iso.mean_cosine, 0.0, 0.01);
  EXPECT_NEAR(iso.std_cosine, 1.0 / std::sqrt(double(d)), 0.02);  // cosines of random directions: sd 1/sqrt(d)
  EXPECT_LT(iso.top_direction, 2.0 / double(d));
  const Anisotropy spiked = anisotropy(gaussian(4000, d, 7, 0, 20));  // variance 401 on one axis, 1 on the rest
  EXPECT_NEAR(spiked.top_direction, 401.0 / (401.0 + d - 1), 0.03);
  const Anisotropy offset = anisotropy(gaussian(4000, d, 7, 3));  // a shared direction: high cosines
  EXPECT_NEAR(offset.mean_cosine, 9.0 / 10.0, 0.02);
}

TEST(Anisotropy, RowsThatCannotTakePartAreLeftOut) {
  Matrix X = gaussian(6, 4, 9);
  for (std::size_t c = 0; c < 4; ++c) X.set(1, c, 0.0f);
  X.set(3, 2, std::numeric_limits<float>::quiet_NaN());
  AnisotropyOptions o;
  o.keep_pairs = true;
  const Anisotropy a = anisotropy(X, o);
  EXPECT_EQ(a.rows, 4u);
  EXPECT_EQ(a.pairs, 6u);
  for (const auto& p : a.pair_ids)
    for (Id id : p) EXPECT_TRUE(id != 1 && id != 3);
  EXPECT_TRUE(std::isfinite(a.mean_cosine));
  Matrix one(3, 4);
  one.set(0, 0, 1.0f);
  const Anisotropy none = anisotropy(one);
  EXPECT_FALSE(none.defined());
  EXPECT_TRUE(anisotropy_json(none).is_null());
  EXPECT_EQ(anisotropy_json(a).at("pairs"), 6u);
}

TEST(Anisotropy, TheSameForASeedWhateverTheThreads) {
  const Matrix X = gaussian(3000, 24, 11, 0.2, 3);
  AnisotropyOptions o;
  o.max_rows = 1000;
  o.threads = 1;
  const Anisotropy one = anisotropy(X, o);
  o.threads = 2;
  const Anisotropy two = anisotropy(X, o);
  EXPECT_EQ(one.mean_cosine, two.mean_cosine);
  EXPECT_EQ(one.std_cosine, two.std_cosine);
  EXPECT_EQ(one.pca_rows, 1000u);
  EXPECT_NEAR(one.top_direction, two.top_direction, 1e-9);
  o.seed = 1;
  EXPECT_NE(anisotropy(X, o).mean_cosine, one.mean_cosine);
}

TEST(Anisotropy, BaselineAdjustment) {
  EXPECT_DOUBLE_EQ(baseline_adjusted(0.9, 0.8), 0.5);
  EXPECT_DOUBLE_EQ(baseline_adjusted(1.0, 0.95), 1.0);
  EXPECT_DOUBLE_EQ(baseline_adjusted(0.8, 0.8), 0.0);
  EXPECT_LT(baseline_adjusted(0.5, 0.8), 0.0);
  EXPECT_DOUBLE_EQ(baseline_adjusted(0.3, 0.0), 0.3);
  EXPECT_DOUBLE_EQ(baseline_adjusted(0.9, 1.0), 0.0);
}

}  // namespace test_anisotropy
