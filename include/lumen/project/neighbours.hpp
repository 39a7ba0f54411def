#pragma once
// Exact k nearest neighbours of every row among the others (itself excluded), by Euclidean distance:
// what t-SNE's affinities and the honesty numbers are computed from.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/progress.hpp"

namespace lumen::project {

struct Neighbours {
  std::size_t n = 0, k = 0;
  std::vector<std::int32_t> ids;  // (n, k): nearest first
  std::vector<float> dist2;       // (n, k): squared Euclidean distances, ascending
  const std::int32_t* row(std::size_t i) const { return ids.data() + i * k; }
  const float* row_dist2(std::size_t i) const { return dist2.data() + i * k; }
};

// X (n, d) f32. k < n. Exact, through lumen::search's batch top-k (GEMM, then exact rescoring);
// progress(done, n) after each batch of queries.
Neighbours exact_neighbours(const Matrix& X, std::size_t k, std::size_t threads = 0, const ProgressFn& progress = {});

// The same from lumen's HNSW index (search/hnsw.hpp, M 16, ef_construction 100, search breadth max(64, 2k)):
// approximate (a neighbour the graph misses is replaced by the next it finds), with exact distances; far faster than
// the exact product for large n. Built on one thread (see HnswIndex::build). progress(done, n) as queries finish.
Neighbours hnsw_neighbours(const Matrix& X, std::size_t k, std::size_t threads = 0, const ProgressFn& progress = {});

// The k nearest map points of each of `queries` among all n points of a two-dimensional map Y (n, 2),
// itself excluded. Brute force per query (cheap in two dimensions).
Neighbours map_neighbours(const std::vector<float>& Y, std::size_t n, const std::vector<std::int32_t>& queries,
                          std::size_t k, std::size_t threads = 0);

}  // namespace lumen::project
