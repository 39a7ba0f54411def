#include "lumen/eval/cka.hpp"

#include <cmath>
#include <limits>

namespace lumen::eval {

namespace {
double frobenius2(const std::vector<double>& m) {
  double s = 0.0;
  for (const double v : m) s += v * v;
  return s;
}
}  // namespace

double linear_cka(const CrossGram& g) {
  const double den = std::sqrt(frobenius2(g.aa)) * std::sqrt(frobenius2(g.bb));
  if (!(den > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return frobenius2(g.ab) / den;
}

}  // namespace lumen::eval
