#include "lumen/linalg/blas_threads.hpp"

#include <cblas.h>

#include "lumen/core/threads.hpp"

namespace lumen {

ScopedBlasThreads::ScopedBlasThreads(std::size_t threads)
    : threads_(threads == 0 ? default_threads() : threads), saved_(openblas_get_num_threads()) {
  if (saved_ != static_cast<int>(threads_)) openblas_set_num_threads(static_cast<int>(threads_));
}

ScopedBlasThreads::~ScopedBlasThreads() {
  if (openblas_get_num_threads() != saved_) openblas_set_num_threads(saved_);
}

}  // namespace lumen
