#include "lumen/model/claim_figure.hpp"

#include <algorithm>
#include <cmath>

namespace lumen::model {

SeedSpread seed_spread(std::span<const double> v) {
  SeedSpread s;
  s.n = v.size();
  if (v.empty()) return s;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

namespace {

std::string verdict_of(const SeedSpread& s, bool has_spread, const VerdictNames& names) {
  if (!has_spread || !std::isfinite(s.mean)) return "single";
  if (s.mean - s.sd > 0) return names.positive;
  if (s.mean + s.sd < 0) return names.negative;
  return "within_spread";
}

}  // namespace

ClaimFigure judge_difference(std::vector<double> values, std::string over, const VerdictNames& names) {
  ClaimFigure f;
  f.spread = seed_spread(values);
  f.values = std::move(values);
  f.over = std::move(over);
  f.verdict = verdict_of(f.spread, f.spread.n >= 2, names);
  return f;
}

ClaimFigure judge_difference(double value, double sd, std::size_t n, std::string over, const VerdictNames& names) {
  ClaimFigure f;
  f.values = {value};
  f.spread = {.mean = value, .sd = sd, .min = value, .max = value, .n = n};
  f.over = std::move(over);
  f.verdict = verdict_of(f.spread, n >= 2 && std::isfinite(sd), names);
  return f;
}

}  // namespace lumen::model
