#pragma once
// OpenBLAS's thread pool is global: lumen sets it from its own thread count before each sgemm.
#include <cstddef>

namespace lumen::nn {

// Sets OpenBLAS to `threads` (0 = lumen::default_threads()) if it is not already there.
void set_blas_threads(std::size_t threads);

}  // namespace lumen::nn
