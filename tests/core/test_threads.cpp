// The thread count's bound: past kMaxThreads every entry point refuses it, never tries to start that many threads
// (40,000 of them aborted a Python interpreter, issue #35).
#include <gtest/gtest.h>

#include <atomic>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"

namespace lumen {
namespace test_threads {

TEST(Threads, PastTheBoundIsAnOptionErrorBeforeAnyThreadStarts) {
  std::atomic<int> calls{0};
  const auto count = [&](std::size_t, std::size_t, std::size_t) { ++calls; };
  try {
    parallel_for(100000, 40000, count);
    FAIL() << "40000 threads were accepted";
  } catch (const OptionError& e) {
    EXPECT_EQ(e.option(), "threads");
    EXPECT_EQ(e.text_for("--threads"), "--threads must be at most 4096 (0: all cores), not 40000");
  }
  EXPECT_EQ(calls.load(), 0);
  const std::size_t before = default_threads();
  EXPECT_THROW(set_default_threads(1000000000), OptionError);
  EXPECT_EQ(default_threads(), before);
  EXPECT_NO_THROW(check_threads(kMaxThreads));
  parallel_for(10, kMaxThreads, count);  // the bound itself is allowed (clamped to the 10 items)
  EXPECT_EQ(calls.load(), 10);
}

}  // namespace test_threads
}  // namespace lumen
