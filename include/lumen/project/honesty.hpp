#pragma once
// The numbers that keep a map honest: how well a map keeps each point's nearest neighbours of the original
// space, and how much maps made with different seeds agree with each other.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lumen/project/neighbours.hpp"

namespace lumen::project {

// Mean over `queries` of |kNN_original(i) ∩ kNN_map(i)| / k: 1 when the map keeps every neighbourhood.
// `original` holds at least k neighbours for every point (rows indexed by point); `map` is laid out by query.
double knn_preservation(const Neighbours& original, const std::vector<std::int32_t>& queries, const Neighbours& map,
                        std::size_t k);

// Mean over queries of the Jaccard overlap |A ∩ B| / |A ∪ B| of the k nearest neighbours in two maps
// (both laid out by query).
double knn_jaccard(const Neighbours& a, const Neighbours& b, std::size_t k);

// Up to `max` distinct points of [0, n) drawn with lumen::Rng (all of them, in order, when n <= max).
std::vector<std::int32_t> sample_points(std::size_t n, std::size_t max, std::uint64_t seed);

}  // namespace lumen::project
