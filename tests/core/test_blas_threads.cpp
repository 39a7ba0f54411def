#include <gtest/gtest.h>

#include <cblas.h>

#include "lumen/core/blas_threads.hpp"
#include "lumen/core/threads.hpp"

using namespace lumen;

TEST(ScopedBlasThreads, SetsTheCountAndRestoresWhatWasThere) {
  openblas_set_num_threads(1);
  {
    const ScopedBlasThreads guard(2);
    EXPECT_EQ(guard.threads(), 2u);
    EXPECT_EQ(openblas_get_num_threads(), 2);
    {
      const ScopedBlasThreads inner(1);
      EXPECT_EQ(openblas_get_num_threads(), 1);
    }
    EXPECT_EQ(openblas_get_num_threads(), 2);
  }
  EXPECT_EQ(openblas_get_num_threads(), 1);
}

TEST(ScopedBlasThreads, ZeroMeansLumensDefault) {
  const ScopedBlasThreads guard(0);
  EXPECT_EQ(guard.threads(), default_threads());
}
