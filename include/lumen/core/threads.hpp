#pragma once
// One place decides the thread count: the CLI's --threads sets it, kernels take it as an argument.
#include <cstddef>
#include <functional>

namespace lumen {

std::size_t default_threads();            // set_default_threads() value, or all cores
void set_default_threads(std::size_t n);  // 0 = all cores

// Runs fn(begin, end, thread_index) over [0, n) split into `threads` contiguous chunks
// (fewer if n is small). Chunk boundaries depend only on n and threads. Exceptions propagate (the first one).
void parallel_for(std::size_t n, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t, std::size_t)>& fn);

}  // namespace lumen
