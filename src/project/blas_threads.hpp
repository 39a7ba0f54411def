#pragma once
// OpenBLAS keeps one global thread count: set it to lumen's before each BLAS-heavy step.
#include <cstddef>

namespace lumen::project::detail {

// Resolves 0 to lumen::default_threads() and hands it to OpenBLAS; returns the resolved count.
std::size_t use_blas_threads(std::size_t threads);

}  // namespace lumen::project::detail
