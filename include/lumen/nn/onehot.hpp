#pragma once
// The slow reference path of the chapter: an id is a one-hot vector of length V, and one-hot x E picks row id.
// embed_via_onehot really builds the (N,V) one-hot matrix and multiplies it with sgemm; Embedding::forward
// (a row gather) must give exactly the same numbers.
#include <cstddef>
#include <span>

#include "lumen/core/matrix.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::nn {

// ids (N) -> one-hot (N,V): row n is all zeros except a 1 at column ids[n]. Throws IdError for a bad id.
Matrix onehot(std::span<const Id> ids, std::size_t V);

// ids (N) -> (N,d) = onehot(ids) (N,V) . E (V,d), through cblas_sgemm. E of any dtype (computed in f32).
// `threads` sets OpenBLAS's thread count (0 = lumen::default_threads()).
Matrix embed_via_onehot(const Matrix& E, std::span<const Id> ids, std::size_t threads = 0);

}  // namespace lumen::nn
