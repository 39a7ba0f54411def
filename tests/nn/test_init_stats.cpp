// Measured dot-product statistics of a fresh table against sigma^2 sqrt(d).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "lumen/core/error.hpp"
#include "lumen/nn/init_stats.hpp"

using namespace lumen;
using namespace lumen::nn;

TEST(InitStats, MeasuredStdMatchesSigmaSquaredSqrtD) {
  for (std::size_t d : {64, 768}) {
    InitStatsOptions o;
    o.d = d;
    o.std = 0.02;
    o.samples = 20000;
    o.V = 2048;
    const InitStats s = init_stats(o);
    EXPECT_DOUBLE_EQ(s.predicted_dot_std, 0.0004 * std::sqrt(static_cast<double>(d)));
    // 20000 samples: the std estimate is within a few percent.
    EXPECT_NEAR(s.measured_dot_std / s.predicted_dot_std, 1.0, 0.05) << d;
    EXPECT_NEAR(s.measured_scaled_dot_std / s.predicted_scaled_dot_std, 1.0, 0.05) << d;
    EXPECT_NEAR(s.measured_scaled_dot_std / s.measured_dot_std, static_cast<double>(d), 1e-3 * d);
    EXPECT_NEAR(s.measured_row_norm / s.predicted_row_norm, 1.0, 0.05);
    EXPECT_NEAR(s.measured_dot_mean, 0.0, 5 * s.predicted_dot_std / std::sqrt(20000.0));
  }
}

TEST(InitStats, DeterministicForASeedAndValidated) {
  InitStatsOptions o;
  o.d = 32;
  o.samples = 500;
  o.V = 100;
  EXPECT_EQ(init_stats(o).measured_dot_std, init_stats(o).measured_dot_std);
  o.seed = 1;
  const double other = init_stats(o).measured_dot_std;
  o.seed = 0;
  EXPECT_NE(init_stats(o).measured_dot_std, other);
  o.std = -1;
  EXPECT_THROW(init_stats(o), UsageError);
  o.std = 0.02;
  o.d = 0;
  EXPECT_THROW(init_stats(o), UsageError);
}

TEST(InitStats, SizesBeyondTheLimitsAreUsageErrors) {
  // Refused before allocating anything, the message naming the limit (not an out-of-memory internal error).
  const auto message = [](InitStatsOptions o) {
    try {
      (void)init_stats(o);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  InitStatsOptions o;
  o.d = 100'000'000'000;
  EXPECT_NE(message(o).find("at most 65536"), std::string::npos) << message(o);
  o = {};
  o.V = std::numeric_limits<std::size_t>::max();
  EXPECT_NE(message(o).find("at most 1000000"), std::string::npos) << message(o);
  o = {};
  o.d = 65536;
  o.V = 100'000;
  EXPECT_NE(message(o).find("at most 268435456"), std::string::npos) << message(o);
  o = {};
  o.samples = std::numeric_limits<std::size_t>::max();
  EXPECT_NE(message(o).find("at most 10000000000"), std::string::npos) << message(o);
}
