#pragma once
// OpenBLAS keeps one global thread count: set it to lumen's before each BLAS-heavy step (as project's helper;
// both give way to lumen/core's scoped guard once it lands).
#include <cblas.h>

#include <cstddef>

#include "lumen/core/threads.hpp"

namespace lumen::eval::detail {

inline std::size_t use_blas_threads(std::size_t threads) {
  if (threads == 0) threads = default_threads();
  openblas_set_num_threads(static_cast<int>(threads));
  return threads;
}

}  // namespace lumen::eval::detail
