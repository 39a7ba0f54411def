#pragma once
// A claim's figure measured several times (over seeds, models, pairs or folds), with its spread and a verdict that
// is computed from the numbers and can come out either way: what each row of `lumen claims` about a model reports.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace lumen::model {

// Mean and spread of one figure over the seeds. The spread is the sample standard deviation (n - 1; 0 for n = 1).
struct SeedSpread {
  double mean = 0, sd = 0, min = 0, max = 0;
  std::size_t n = 0;
};
SeedSpread seed_spread(std::span<const double> values);

// A difference (e.g. deeper layer minus row 0), one value per run. Its verdict: `positive` when mean - sd > 0,
// `negative` when mean + sd < 0 (beyond the spread either way), "within_spread" otherwise, and "single" when a
// spread cannot be had (fewer than 2 values and no sd given).
struct ClaimFigure {
  std::vector<double> values;  // one per run
  SeedSpread spread;           // over `values`, or as given (one value with a spread from elsewhere)
  std::string over;            // what the spread is over: "seeds", "models", "pairs", "folds", ...
  std::string verdict;
};
// The names of the two outcomes beyond the spread, e.g. {"deeper_higher", "row0_higher"}.
struct VerdictNames {
  std::string positive, negative;
};
ClaimFigure judge_difference(std::vector<double> values, std::string over, const VerdictNames& names);
// One measured difference with a spread from elsewhere (a probe's folds, a binomial standard error).
ClaimFigure judge_difference(double value, double sd, std::size_t n, std::string over, const VerdictNames& names);

}  // namespace lumen::model
