#pragma once
// The numbers that keep a map honest: how well a map keeps each point's nearest neighbours of the original
// space, and how much maps made with different seeds agree with each other.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lumen/project/neighbours.hpp"

namespace lumen::project {

// Mean over queries of |kNN_original(i) ∩ kNN_map(i)| / k: 1 when the map keeps every neighbourhood.
// Both lists are laid out by query and hold at least k neighbours each.
double knn_preservation(const Neighbours& original, const Neighbours& map, std::size_t k);

// The rows `queries` of neighbour lists indexed by point, laid out by query.
Neighbours select_rows(const Neighbours& nb, const std::vector<std::int32_t>& queries);

// The k nearest rows of X (n, d) f32 to each of X's rows `queries` (itself excluded), by lumen's exact search;
// cosine: by cosine similarity, else Euclidean. Laid out by query.
Neighbours query_neighbours(const Matrix& X, const std::vector<std::int32_t>& queries, std::size_t k, bool cosine,
                            std::size_t threads = 0);

// Mean over queries of the Jaccard overlap |A ∩ B| / |A ∪ B| of the k nearest neighbours in two maps
// (both laid out by query).
double knn_jaccard(const Neighbours& a, const Neighbours& b, std::size_t k);

// Up to `max` distinct points of [0, n) drawn with lumen::Rng (all of them, in order, when n <= max).
std::vector<std::int32_t> sample_points(std::size_t n, std::size_t max, std::uint64_t seed);

}  // namespace lumen::project
