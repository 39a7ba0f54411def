#include "lumen/core/threads.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen {

namespace {
std::atomic<std::size_t> g_threads{0};
}

void check_threads(std::size_t n) {
  if (n > kMaxThreads)
    throw OptionError("threads", fmt::format("{{option}} must be at most {} (0: all cores), not {}", kMaxThreads, n));
}

std::size_t default_threads() {
  const std::size_t n = g_threads.load();
  if (n != 0) return n;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

void set_default_threads(std::size_t n) {
  check_threads(n);
  g_threads.store(n);
}

void parallel_for(std::size_t n, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t, std::size_t)>& fn) {
  check_threads(threads);
  if (n == 0) return;
  if (threads == 0) threads = default_threads();
  if (threads > n) threads = n;
  if (threads <= 1) {
    fn(0, n, 0);
    return;
  }
  std::exception_ptr error;
  std::mutex mu;
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  auto run = [&](std::size_t t) {
    const std::size_t b = n * t / threads, e = n * (t + 1) / threads;
    try {
      fn(b, e, t);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
    }
  };
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace lumen
