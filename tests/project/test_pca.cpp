// PCA against a plain reference: power iteration with deflation on the covariance, in double.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/project/pca.hpp"

using namespace lumen;
using namespace lumen::project;

namespace test_pca {

// Rows with a clear spectrum: latent factors of decreasing scale mixed into d dimensions, plus noise and an offset.
Matrix make_data(std::size_t n, std::size_t d, std::uint64_t seed) {
  Rng rng(seed);
  const std::size_t f = std::min<std::size_t>(5, d);
  std::vector<double> mix(f * d);
  for (auto& m : mix) m = rng.normal();
  Matrix X(n, d);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> z(f);
    for (std::size_t a = 0; a < f; ++a) z[a] = rng.normal() * (6.0 - static_cast<double>(a));
    for (std::size_t c = 0; c < d; ++c) {
      double v = 3.0 + 0.1 * rng.normal();
      for (std::size_t a = 0; a < f; ++a) v += z[a] * mix[a * d + c];
      X.set(i, c, static_cast<float>(v));
    }
  }
  return X;
}

struct Reference {
  std::vector<std::vector<double>> vecs;
  std::vector<double> vals;
  double total = 0;
};

Reference reference_pca(const Matrix& X, std::size_t k) {
  const std::size_t n = X.rows(), d = X.cols();
  std::vector<double> mean(d, 0.0), C(d * d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < d; ++c) mean[c] += X.at(i, c) / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t a = 0; a < d; ++a)
      for (std::size_t b = 0; b < d; ++b)
        C[a * d + b] += (X.at(i, a) - mean[a]) * (X.at(i, b) - mean[b]) / static_cast<double>(n - 1);
  Reference r;
  for (std::size_t a = 0; a < d; ++a) r.total += C[a * d + a];
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<double> v(d, 1.0 / std::sqrt(static_cast<double>(d)));
    v[j % d] += 0.5;
    double lambda = 0;
    for (int it = 0; it < 3000; ++it) {
      std::vector<double> w(d, 0.0);
      for (std::size_t a = 0; a < d; ++a)
        for (std::size_t b = 0; b < d; ++b) w[a] += C[a * d + b] * v[b];
      double norm = 0;
      for (double x : w) norm += x * x;
      norm = std::sqrt(norm);
      for (std::size_t a = 0; a < d; ++a) v[a] = w[a] / norm;
      lambda = norm;
    }
    for (std::size_t a = 0; a < d; ++a)
      for (std::size_t b = 0; b < d; ++b) C[a * d + b] -= lambda * v[a] * v[b];
    r.vecs.push_back(v);
    r.vals.push_back(lambda);
  }
  return r;
}

void expect_equal_up_to_sign(const Pca& pca, const Reference& ref, double tol) {
  for (std::size_t j = 0; j < pca.k(); ++j) {
    double dot = 0;
    for (std::size_t c = 0; c < pca.d(); ++c) dot += pca.components.at(j, c) * ref.vecs[j][c];
    EXPECT_NEAR(std::fabs(dot), 1.0, tol) << "component " << j;
    EXPECT_NEAR(pca.variance[j], ref.vals[j], 1e-4 * ref.vals[j]) << "component " << j;
    EXPECT_NEAR(pca.variance_ratio[j], ref.vals[j] / ref.total, 1e-4) << "component " << j;
  }
}

TEST(Pca, CovarianceRouteMatchesReferenceUpToSign) {
  const Matrix X = make_data(300, 12, 7);
  const Pca pca = fit_pca(X, {}, 3);
  ASSERT_EQ(pca.k(), 3u);
  expect_equal_up_to_sign(pca, reference_pca(X, 3), 1e-4);
  EXPECT_GT(pca.variance[0], pca.variance[1]);
  EXPECT_GT(pca.variance[1], pca.variance[2]);
}

TEST(Pca, GramRouteWhenFewerRowsThanDimensions) {
  const Matrix X = make_data(9, 40, 3);
  const Pca pca = fit_pca(X, {}, 2);
  expect_equal_up_to_sign(pca, reference_pca(X, 2), 1e-4);
}

TEST(Pca, SubsetOfRowsEqualsThoseRowsAlone) {
  const Matrix X = make_data(100, 8, 11);
  std::vector<Id> rows;
  for (Id i = 0; i < 100; i += 3) rows.push_back(i);
  Matrix sub(rows.size(), 8);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < 8; ++c) sub.set(r, c, X.at(static_cast<std::size_t>(rows[r]), c));
  const Pca a = fit_pca(X, rows, 2), b = fit_pca(sub, {}, 2);
  for (std::size_t j = 0; j < 2; ++j)
    for (std::size_t c = 0; c < 8; ++c) EXPECT_NEAR(a.components.at(j, c), b.components.at(j, c), 1e-5);
}

TEST(Pca, CoordinatesAreCentredProjectionsAndCarryTheVariance) {
  const Matrix X = make_data(400, 10, 5);
  const Pca pca = fit_pca(X, {}, 4);
  const Matrix Y = pca_transform(pca, X, {});
  ASSERT_EQ(Y.rows(), 400u);
  ASSERT_EQ(Y.cols(), 4u);
  for (std::size_t j = 0; j < 4; ++j) {
    double s = 0, s2 = 0;
    for (std::size_t i = 0; i < 400; ++i) {
      s += Y.at(i, j);
      s2 += Y.at(i, j) * Y.at(i, j);
    }
    EXPECT_NEAR(s / 400, 0.0, 1e-3);
    EXPECT_NEAR(s2 / 399, pca.variance[j], 1e-3 * pca.variance[j]);
  }
  // All components: the ratios sum to one.
  const Pca full = fit_pca(X, {}, 10);
  double sum = 0;
  for (double r : full.variance_ratio) sum += r;
  EXPECT_NEAR(sum, 1.0, 1e-4);
}

TEST(Pca, WorksOnHalfPrecisionTables) {
  const Matrix X = make_data(200, 6, 2);
  const Pca a = fit_pca(X, {}, 2), b = fit_pca(X.to(DType::bf16), {}, 2);
  for (std::size_t j = 0; j < 2; ++j) {
    double dot = 0;
    for (std::size_t c = 0; c < 6; ++c) dot += a.components.at(j, c) * b.components.at(j, c);
    EXPECT_NEAR(std::fabs(dot), 1.0, 1e-3);
  }
}

TEST(Pca, BadArguments) {
  const Matrix X = make_data(10, 4, 1);
  EXPECT_THROW(fit_pca(X, {}, 0), UsageError);
  EXPECT_THROW(fit_pca(X, {}, 5), UsageError);
  const std::vector<Id> one{3};
  EXPECT_THROW(fit_pca(X, one, 1), InputError);
  const std::vector<Id> bad{1, 10};
  EXPECT_THROW(fit_pca(X, bad, 1), IdError);
}

TEST(Pca, LargeMeansTakeTheCentredRouteAndGiveTheSameComponents) {
  // Offsets far beyond the spread: the uncentred covariance would cancel badly, so rows are centred first.
  const Matrix X = make_data(300, 12, 9);
  Matrix far(300, 12);
  for (std::size_t i = 0; i < 300; ++i)
    for (std::size_t c = 0; c < 12; ++c) far.set(i, c, X.at(i, c) + 5000.0f);
  const Pca a = fit_pca(X, {}, 2), b = fit_pca(far, {}, 2);
  const Reference ref = reference_pca(far, 2);
  expect_equal_up_to_sign(b, ref, 1e-3);
  for (std::size_t j = 0; j < 2; ++j) EXPECT_NEAR(a.variance[j], b.variance[j], 1e-2 * a.variance[j]);
  const Matrix Y = pca_transform(b, far, {});
  double s = 0;
  for (std::size_t i = 0; i < 300; ++i) s += Y.at(i, 0);
  EXPECT_NEAR(s / 300, 0.0, 0.05);
}

}  // namespace test_pca
