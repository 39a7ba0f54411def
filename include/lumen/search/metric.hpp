#pragma once
// How a query is compared with a row: cosine and dot are similarities (higher is nearer), euclidean is a
// distance (lower is nearer). Every ranking in lumen::search uses rank_key(), so ties and NaN are handled once.
#include <cmath>
#include <limits>
#include <string_view>

namespace lumen::search {

enum class Metric { cosine, dot, euclidean };

std::string_view metric_name(Metric m);
Metric parse_metric(std::string_view name);  // "cosine", "dot", "euclidean" (or "l2"); throws UsageError

// The score from a row's raw kernel value: `raw` is q.r (cosine, dot) or |q - r|^2 (euclidean);
// qnorm, rnorm are |q|, |r|. Cosine with a zero vector is 0 (no direction, no similarity).
// Inline: the scan loop calls it per row.
inline float finish_score(Metric m, float raw, float qnorm, float rnorm) {
  switch (m) {
    case Metric::cosine: {
      const float denom = qnorm * rnorm;
      return denom > 0.0f ? raw / denom : 0.0f;
    }
    case Metric::dot: return raw;
    case Metric::euclidean: return std::sqrt(raw > 0.0f ? raw : 0.0f);
  }
  return raw;
}

// A number that is larger for a nearer row: the score, or minus the distance; NaN ranks last (-inf).
inline float rank_key(Metric m, float score) {
  if (std::isnan(score)) return -std::numeric_limits<float>::infinity();
  return m == Metric::euclidean ? -score : score;
}

// True if (key a, id a) ranks before (key b, id b): the larger key, and on a tie the lower id.
inline bool ranks_before(float key_a, long long id_a, float key_b, long long id_b) {
  return key_a > key_b || (key_a == key_b && id_a < id_b);
}

}  // namespace lumen::search
