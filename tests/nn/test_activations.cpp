// The exp-based activations: every ISA variant gives the generic reference's bits, and the reference is within a
// few ulp of the same functions in double precision (libm's exp and tanh).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/nn/activations.hpp"

using namespace lumen;

namespace {

const std::size_t kSizes[] = {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 100, 1000, 1025};

std::vector<float> random_values(std::size_t n, double spread, std::uint64_t seed) {
  Rng r(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(r.normal() * spread);
  return v;
}

// 0.5 x (1 + tanh u) = x / (1 + e^-2u), the second form in double (it keeps its digits where 1 + tanh u cancels),
// from u in float: u's own rounding is the formula's, in any float GELU (libm's tanhf too), and e^-2u magnifies it
// by 2u for negative x; what is measured here is the rest.
double gelu_exact(float x) {
  const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
  return x / (1.0 + std::exp(-2.0 * static_cast<double>(u)));
}

double silu_exact(double g) { return g / (1.0 + std::exp(-g)); }

// |got - want| within `ulps` float ulps of want; below 1e-30 (where e^x's clamp at -87 decides), within 1e-30.
::testing::AssertionResult within_ulps(float got, double want, double ulps) {
  const double unit = std::abs(want) * 0x1p-23;
  if (std::abs(want) < 1e-30 ? std::abs(got - want) <= 1e-30 : std::abs(got - want) <= ulps * unit)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got << " vs " << want << ": " << std::abs(got - want) / unit << " ulps";
}

}  // namespace

TEST(Activations, EveryVariantMatchesGenericBitForBit) {
  for (std::size_t n : kSizes)
    for (double spread : {0.5, 4.0, 60.0}) {
      std::vector<float> x = random_values(n, spread, n * 7 + 1), up = random_values(n, 1.0, n * 7 + 2);
      x[0] = n % 2 == 0 ? 200.0f : -200.0f;  // past the clamp
      std::vector<float> g0(n), s0(n), p0 = x;
      nn::gelu(Isa::generic, g0.data(), x.data(), n);
      nn::silu_mul(Isa::generic, s0.data(), x.data(), up.data(), n);
      nn::softmax(Isa::generic, p0.data(), n);
      for (Isa isa : available_isas()) {
        std::vector<float> g(n), s(n), p = x;
        nn::gelu(isa, g.data(), x.data(), n);
        nn::silu_mul(isa, s.data(), x.data(), up.data(), n);
        nn::softmax(isa, p.data(), n);
        EXPECT_EQ(std::memcmp(g.data(), g0.data(), n * sizeof(float)), 0) << "gelu " << isa_name(isa) << " n=" << n;
        EXPECT_EQ(std::memcmp(s.data(), s0.data(), n * sizeof(float)), 0) << "silu " << isa_name(isa) << " n=" << n;
        EXPECT_EQ(std::memcmp(p.data(), p0.data(), n * sizeof(float)), 0) << "softmax " << isa_name(isa) << " n=" << n;
      }
    }
}

TEST(Activations, GeluAndSiluAreWithinUlpsOfDoublePrecision) {
  std::vector<float> x = random_values(20000, 3.0, 11);
  for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 5.0f, -5.0f, 9.0f, -9.0f, 40.0f, -40.0f, 1e-20f, -1e-20f, 1e30f})
    x.push_back(v);
  const std::size_t n = x.size();
  std::vector<float> ones(n, 1.0f);
  for (Isa isa : available_isas()) {
    std::vector<float> g(n), s(n);
    nn::gelu(isa, g.data(), x.data(), n);
    nn::silu_mul(isa, s.data(), x.data(), ones.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_TRUE(within_ulps(g[i], gelu_exact(x[i]), 2.0)) << isa_name(isa) << " gelu(" << x[i] << ")";
      EXPECT_TRUE(within_ulps(s[i], silu_exact(x[i]), 2.0)) << isa_name(isa) << " silu(" << x[i] << ")";
    }
  }
  // The sign of zero and the propagation of NaN survive.
  const float in[2] = {-0.0f, std::numeric_limits<float>::quiet_NaN()};
  float out[2];
  nn::gelu(out, in, 2);
  EXPECT_TRUE(std::signbit(out[0]));
  EXPECT_TRUE(std::isnan(out[1]));
}

TEST(Activations, SoftmaxIsWithinUlpsAndSumsToOne) {
  for (std::size_t n : kSizes)
    for (double spread : {0.1, 3.0, 30.0}) {
      const std::vector<float> x = random_values(n, spread, n + 100);
      double top = -INFINITY, sum = 0;
      for (float v : x) top = std::max(top, static_cast<double>(v));
      for (float v : x) sum += std::exp(static_cast<double>(v - static_cast<float>(top)));
      for (Isa isa : available_isas()) {
        std::vector<float> p = x;
        nn::softmax(isa, p.data(), n);
        double total = 0;
        for (std::size_t i = 0; i < n; ++i) {
          total += p[i];
          // The score less the top, rounded to float as every float softmax does: e^ magnifies that rounding.
          const double want = std::exp(static_cast<double>(x[i] - static_cast<float>(top))) / sum;
          EXPECT_TRUE(within_ulps(p[i], want, 3.0)) << isa_name(isa) << " n=" << n << " i=" << i;
        }
        EXPECT_NEAR(total, 1.0, 1e-6) << isa_name(isa) << " n=" << n;
      }
    }
  // Scores a thousand apart: no overflow, the top one takes everything.
  std::vector<float> p = {-1000.0f, 0.0f, -3000.0f};
  nn::softmax(p.data(), p.size());
  EXPECT_EQ(p[1], 1.0f);
  EXPECT_LE(p[0], 1e-30f);
}
