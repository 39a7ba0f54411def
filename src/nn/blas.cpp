#include "blas.hpp"

#include <cblas.h>

#include "lumen/core/threads.hpp"

namespace lumen::nn {

void set_blas_threads(std::size_t threads) {
  if (threads == 0) threads = default_threads();
  const int n = static_cast<int>(threads);
  if (openblas_get_num_threads() != n) openblas_set_num_threads(n);
}

}  // namespace lumen::nn
