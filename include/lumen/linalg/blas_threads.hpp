#pragma once
// OpenBLAS keeps one thread count for the whole process, and some of its kernels (Haswell's and Zen's sgemm
// among them) sum in a different order at a different count. Every BLAS call in lumen runs inside a
// ScopedBlasThreads, so its result depends on the thread count asked for, never on what an earlier call left
// behind; the count in force before is restored when the guard ends.
#include <cstddef>

namespace lumen {

class ScopedBlasThreads {
 public:
  explicit ScopedBlasThreads(std::size_t threads);  // 0 = lumen::default_threads()
  ~ScopedBlasThreads();
  ScopedBlasThreads(const ScopedBlasThreads&) = delete;
  ScopedBlasThreads& operator=(const ScopedBlasThreads&) = delete;
  ScopedBlasThreads(ScopedBlasThreads&&) = delete;
  ScopedBlasThreads& operator=(ScopedBlasThreads&&) = delete;

  std::size_t threads() const { return threads_; }  // the resolved count

 private:
  std::size_t threads_;
  int saved_;
};

}  // namespace lumen
