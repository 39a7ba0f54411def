// Every fused logistic-regression kernel variant this CPU runs against the plain reference, bit for bit, and the
// reference against the objective written out directly (logits, log-sum-exp, (P − Y)ᵀ X).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "../../src/eval/logistic_kernels.hpp"
#include "lumen/core/rng.hpp"

using namespace lumen;
namespace logistic_kernels = lumen::eval::logistic_kernels;

namespace test_logistic_kernels {

struct Case {
  std::size_t n, d, K;
  std::vector<double> X, W, b, gW0, gb0;  // gW0, gb0: what the gradient holds before (the kernels add to it)
  std::vector<float> Xf;
  std::vector<int> y;
};

Case make_case(std::size_t n, std::size_t d, std::size_t K, Rng& rng) {
  Case c{n, d, K, {}, {}, {}, {}, {}, {}, {}};
  for (std::size_t i = 0; i < n * d; ++i) c.Xf.push_back(static_cast<float>(rng.normal()));
  c.X.assign(c.Xf.begin(), c.Xf.end());
  for (std::size_t i = 0; i < K * d; ++i) c.W.push_back(rng.normal() / std::sqrt(static_cast<double>(d)) * 3);
  for (std::size_t k = 0; k < K; ++k) c.b.push_back(rng.normal());
  for (std::size_t i = 0; i < K * d; ++i) c.gW0.push_back(rng.normal());
  for (std::size_t k = 0; k < K; ++k) c.gb0.push_back(rng.normal());
  for (std::size_t i = 0; i < n; ++i) c.y.push_back(static_cast<int>(rng.below(K)));
  return c;
}

struct Out {
  double loss = 0;
  std::vector<double> gW, gb;
};

template <typename T>
Out run(const logistic_kernels::Table& t, const Case& c, const T* X) {
  Out o{0, c.gW0, c.gb0};
  std::vector<double> z(logistic_kernels::kScratchRows * c.K);
  if constexpr (std::is_same_v<T, double>)
    o.loss = t.rows_f64(X, c.y.data(), c.n, c.d, c.K, c.W.data(), c.b.data(), z.data(), o.gW.data(), o.gb.data());
  else o.loss = t.rows_f32(X, c.y.data(), c.n, c.d, c.K, c.W.data(), c.b.data(), z.data(), o.gW.data(), o.gb.data());
  return o;
}

// The objective's terms written out, in long double, in no particular lane order.
Out direct(const Case& c) {
  Out o{0, c.gW0, c.gb0};
  long double loss = 0;
  for (std::size_t i = 0; i < c.n; ++i) {
    std::vector<long double> z(c.K);
    long double top = -INFINITY, sum = 0;
    for (std::size_t k = 0; k < c.K; ++k) {
      z[k] = c.b[k];
      for (std::size_t j = 0; j < c.d; ++j) z[k] += static_cast<long double>(c.W[k * c.d + j]) * c.X[i * c.d + j];
      top = std::max(top, z[k]);
    }
    for (std::size_t k = 0; k < c.K; ++k) sum += std::exp(z[k] - top);
    const long double lse = top + std::log(sum);
    loss += lse - z[static_cast<std::size_t>(c.y[i])];
    for (std::size_t k = 0; k < c.K; ++k) {
      const long double a = std::exp(z[k] - lse) - (static_cast<int>(k) == c.y[i] ? 1 : 0);
      o.gb[k] += static_cast<double>(a);
      for (std::size_t j = 0; j < c.d; ++j) o.gW[k * c.d + j] += static_cast<double>(a * c.X[i * c.d + j]);
    }
  }
  o.loss = static_cast<double>(loss);
  return o;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "entry " << i;
}

TEST(LogisticKernels, ReferenceIsTheObjective) {
  Rng rng(17);
  for (std::size_t d : {1u, 7u, 16u, 33u, 300u})
    for (std::size_t K = 2; K <= 7; ++K) {
      SCOPED_TRACE("d=" + std::to_string(d) + " K=" + std::to_string(K));
      const Case c = make_case(9, d, K, rng);
      const Out want = direct(c);
      const Out got = run(logistic_kernels::kGeneric, c, c.X.data());
      EXPECT_NEAR(got.loss, want.loss, 1e-11 * (1 + std::abs(want.loss)));
      expect_near(got.gb, want.gb, 1e-12);
      expect_near(got.gW, want.gW, 1e-11);
    }
}

TEST(LogisticKernels, EveryIsaAgreesWithTheReferenceBitForBit) {
  Rng rng(18);
  for (std::size_t d : {1u, 3u, 4u, 8u, 15u, 16u, 17u, 31u, 32u, 100u, 300u, 301u})
    for (std::size_t K = 2; K <= 7; ++K) {
      const Case c = make_case(d < 100 ? 13 : 5, d, K, rng);
      const Out ref = run(logistic_kernels::kGeneric, c, c.X.data());
      const Out ref_f = run(logistic_kernels::kGeneric, c, c.Xf.data());
      // Float rows widen exactly: the same numbers as their doubles.
      EXPECT_EQ(ref_f.loss, ref.loss);
      EXPECT_EQ(ref_f.gW, ref.gW);
      EXPECT_EQ(ref_f.gb, ref.gb);
      for (Isa isa : available_isas()) {
        SCOPED_TRACE(std::string(isa_name(isa)) + " d=" + std::to_string(d) + " K=" + std::to_string(K));
        const auto& t = logistic_kernels::table(isa);
        for (const Out& o : {run(t, c, c.X.data()), run(t, c, c.Xf.data())}) {
          EXPECT_EQ(o.loss, ref.loss);
          EXPECT_EQ(o.gW, ref.gW);
          EXPECT_EQ(o.gb, ref.gb);
        }
      }
    }
}

}  // namespace test_logistic_kernels
