#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lumen/eval/correlation.hpp"

using namespace lumen::eval;

// Expected values from scipy.stats 1.10 (pearsonr, spearmanr, rankdata).
TEST(EvalCorrelation, MatchesScipy) {
  const std::vector<double> x = {1.0, 2.5, 2.5, 4.0, 7.0, 3.0};
  const std::vector<double> y = {0.3, 0.1, 0.4, 0.4, 0.9, 0.2};
  EXPECT_NEAR(pearson(x, y), 0.8379209914919382, 1e-12);
  EXPECT_NEAR(spearman(x, y), 0.5735294117647058, 1e-12);
  const auto r = average_ranks(x);
  const std::vector<double> want = {1.0, 2.5, 2.5, 5.0, 6.0, 4.0};
  EXPECT_EQ(r, want);
}

TEST(EvalCorrelation, UndefinedIsNaN) {
  const std::vector<double> c = {1, 1, 1}, x = {1, 2, 3}, one = {1};
  EXPECT_TRUE(std::isnan(pearson(c, x)));  // constant input
  EXPECT_TRUE(std::isnan(spearman(x, c)));
  EXPECT_TRUE(std::isnan(pearson(one, one)));  // fewer than two
  const std::vector<double> n = {1, NAN, 3};
  EXPECT_TRUE(std::isnan(spearman(x, n)));
  EXPECT_DOUBLE_EQ(pearson(std::vector<double>{1, 2}, std::vector<double>{5, 3}), -1.0);
}
