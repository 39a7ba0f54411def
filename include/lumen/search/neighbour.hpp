#pragma once
// One search result: a row id and its score (a similarity, or a distance for euclidean).
#include "lumen/core/vocab.hpp"

namespace lumen::search {

struct Neighbour {
  Id id;
  float score;
  bool operator==(const Neighbour&) const = default;
};

}  // namespace lumen::search
