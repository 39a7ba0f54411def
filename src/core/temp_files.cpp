#include "lumen/core/temp_files.hpp"

#include <atomic>
#include <climits>
#include <cstring>
#include <fmt/format.h>
#include <unistd.h>

#include "lumen/core/error.hpp"

namespace lumen::temp_files {

namespace {

// A slot is free, being filled (by add() on some thread), or ready (its path complete: a handler may unlink it).
enum State : int { kFree = 0, kFilling = 1, kReady = 2 };
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

// Fixed storage: a handler cannot allocate. constinit: zero at load time (kFree is 0), so no start-up code writes
// its 64 pages (a page fault each, before main, in every process).
constinit Slot g_slots[kCapacity]{};

}  // namespace

int add(const char* path) {
  const std::size_t n = std::strlen(path);
  if (n >= PATH_MAX) throw IoError(fmt::format("path too long for a temporary file: {}", path));
  for (std::size_t i = 0; i < kCapacity; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) continue;
    std::memcpy(g_slots[i].path, path, n + 1);
    g_slots[i].state.store(kReady, std::memory_order_release);
    return static_cast<int>(i);
  }
  throw IoError(fmt::format("too many files open for writing at once ({}) to create {}", kCapacity, path));
}

void release(int slot) noexcept {
  if (slot < 0 || static_cast<std::size_t>(slot) >= kCapacity) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

void remove_all() noexcept {
  for (auto& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kReady) ::unlink(s.path);
}

std::size_t count() noexcept {
  std::size_t n = 0;
  for (const auto& s : g_slots) n += s.state.load(std::memory_order_acquire) == kReady ? 1 : 0;
  return n;
}

}  // namespace lumen::temp_files
