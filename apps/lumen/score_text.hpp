#pragma once
// How a score reads in text output. A NaN score (a row holding NaN or Inf; see lumen/search/metric.hpp) is
// printed as "nan" whatever its sign bit: fmt writes "-nan" for some NaNs, and the sign of a NaN means nothing.
// JSON needs no help: nlohmann writes every NaN and Inf as null.
#include <cmath>

namespace lumen::cli {

inline float shown(float score) { return std::isnan(score) ? std::fabs(score) : score; }

}  // namespace lumen::cli
