#include "project/blas_threads.hpp"

#include <cblas.h>

#include "lumen/core/threads.hpp"

namespace lumen::project::detail {

std::size_t use_blas_threads(std::size_t threads) {
  if (threads == 0) threads = default_threads();
  openblas_set_num_threads(static_cast<int>(threads));
  return threads;
}

}  // namespace lumen::project::detail
