#pragma once
// One place decides the thread count: the CLI's --threads sets it, kernels take it as an argument.
#include <cstddef>
#include <functional>

namespace lumen {

// More threads than this is a slip, not a machine (each costs a stack and a clone; tens of thousands abort the
// process): the CLI's --threads, Python's threads= and every parallel_for refuse it.
inline constexpr std::size_t kMaxThreads = 4096;
// Throws OptionError (option "threads") when n > kMaxThreads.
void check_threads(std::size_t n);

std::size_t default_threads();            // set_default_threads() value, or all cores
void set_default_threads(std::size_t n);  // 0 = all cores; check_threads(n) first

// Runs fn(begin, end, thread_index) over [0, n) split into `threads` contiguous chunks
// (fewer if n is small). Chunk boundaries depend only on n and threads. Exceptions propagate (the first one).
// check_threads(threads) first.
void parallel_for(std::size_t n, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t, std::size_t)>& fn);

}  // namespace lumen
