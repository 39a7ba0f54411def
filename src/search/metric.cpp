#include "lumen/search/metric.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen::search {

std::string_view metric_name(Metric m) {
  switch (m) {
    case Metric::cosine: return "cosine";
    case Metric::dot: return "dot";
    case Metric::euclidean: return "euclidean";
  }
  return "?";
}

Metric parse_metric(std::string_view name) {
  if (name == "cosine" || name == "cos") return Metric::cosine;
  if (name == "dot" || name == "ip") return Metric::dot;
  if (name == "euclidean" || name == "l2") return Metric::euclidean;
  throw UsageError(fmt::format("unknown metric '{}' (expected cosine, dot or euclidean)", name));
}

}  // namespace lumen::search
