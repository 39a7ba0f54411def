#pragma once
// How a query is compared with a row: cosine and dot are similarities (higher is nearer), euclidean is a
// distance (lower is nearer). Every ranking in lumen::search uses rank_key() and ranks_before(), so ties and NaN
// are handled once. A row (or query) holding NaN or Inf has NaN scores with everything, in every metric: NaN
// ranks after every number (lower id first among NaN), so such a row is never a top neighbour of a finite
// query, and it does not vanish either: it comes last when k reaches it, shown as nan (JSON null).
#include <cmath>
#include <limits>
#include <string_view>

namespace lumen::search {

enum class Metric { cosine, dot, euclidean };

std::string_view metric_name(Metric m);
Metric parse_metric(std::string_view name);  // "cosine", "dot", "euclidean" (or "l2"); throws UsageError

// The score from a row's raw kernel value: `raw` is q.r (cosine, dot) or |q - r|^2 (euclidean);
// qnorm, rnorm are |q|, |r|. Cosine with a zero vector is 0 (no direction, no similarity); with a vector whose
// norm is NaN or Inf it is NaN (no direction can be read from it). Inline: the scan loop calls it per row.
inline float finish_score(Metric m, float raw, float qnorm, float rnorm) {
  switch (m) {
    case Metric::cosine: {
      const float denom = qnorm * rnorm;
      if (denom > 0.0f && denom <= std::numeric_limits<float>::max()) return raw / denom;
      return denom == 0.0f ? 0.0f : std::numeric_limits<float>::quiet_NaN();
    }
    case Metric::dot: return raw;
    case Metric::euclidean: return std::sqrt(raw < 0.0f ? 0.0f : raw);  // NaN stays NaN
  }
  return raw;
}

// A number that is larger for a nearer row: the score, or minus the distance. NaN stays NaN: ranks_before()
// puts it last.
inline float rank_key(Metric m, float score) { return m == Metric::euclidean ? -score : score; }

// True if (key a, id a) ranks before (key b, id b): the larger key, on a tie the lower id; a NaN key after every
// number, and among NaN keys the lower id first (a strict weak order, so sorts and heaps stay well defined).
// The common case, a key below the other, costs two comparisons.
inline bool ranks_before(float key_a, long long id_a, float key_b, long long id_b) {
  if (key_a > key_b) return true;
  if (key_a < key_b) return false;
  const bool nan_a = std::isnan(key_a), nan_b = std::isnan(key_b);
  if (nan_a != nan_b) return nan_b;
  return id_a < id_b;  // equal keys, or both NaN
}

}  // namespace lumen::search
