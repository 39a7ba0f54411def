#pragma once
// Correlation coefficients as scipy.stats computes them (pearsonr, spearmanr): what gensim reports.
#include <span>
#include <vector>

namespace lumen::eval {

// Pearson's r. NaN if n < 2 or either input is constant (scipy warns and returns NaN there).
double pearson(std::span<const double> x, std::span<const double> y);

// Ranks 1..n, ties sharing the average of their ranks (scipy.stats.rankdata, method='average').
std::vector<double> average_ranks(std::span<const double> x);

// Spearman's rho: Pearson's r of the average ranks.
double spearman(std::span<const double> x, std::span<const double> y);

}  // namespace lumen::eval
