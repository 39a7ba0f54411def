#include "lumen/core/temp_files.hpp"

#include <atomic>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lumen/core/error.hpp"

namespace lumen::temp_files {

namespace {

// A slot is free, being filled (by add() on some thread), or ready (its path complete: a handler may unlink it).
// kReadyDirectory: a ready slot holding a directory.
enum State : int { kFree = 0, kFilling = 1, kReady = 2, kReadyDirectory = 3 };
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

// Fixed storage: a handler cannot allocate. constinit: zero at load time (kFree is 0), so no start-up code writes
// its 64 pages (a page fault each, before main, in every process).
constinit Slot g_slots[kCapacity]{};

int add_slot(const char* path, State ready) {
  const std::size_t n = std::strlen(path);
  if (n >= PATH_MAX) throw IoError(fmt::format("path too long for a temporary file: {}", path));
  for (std::size_t i = 0; i < kCapacity; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) continue;
    std::memcpy(g_slots[i].path, path, n + 1);
    g_slots[i].state.store(ready, std::memory_order_release);
    return static_cast<int>(i);
  }
  throw IoError(fmt::format("too many files open for writing at once ({}) to create {}", kCapacity, path));
}

// Unlinks every entry of the directory `path` (a subdirectory only if empty), without allocating: getdents64
// into a buffer on the stack.
void empty_directory(const char* path) noexcept {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[4096];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
      unsigned short reclen = 0;
      std::memcpy(&reclen, buf + at + 16, sizeof reclen);
      const char* name = buf + at + 19;
      if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0)
        if (::unlinkat(fd, name, 0) != 0) ::unlinkat(fd, name, AT_REMOVEDIR);
      at += reclen;
    }
  }
  ::close(fd);
}

}  // namespace

int add(const char* path) { return add_slot(path, kReady); }
int add_directory(const char* path) { return add_slot(path, kReadyDirectory); }

void release(int slot) noexcept {
  if (slot < 0 || static_cast<std::size_t>(slot) >= kCapacity) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

void remove_all() noexcept {
  // Directories first emptied, then files, then the directories removed: a file being written inside a
  // temporary directory is gone before the directory is.
  for (auto& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kReadyDirectory) empty_directory(s.path);
  for (auto& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kReady) ::unlink(s.path);
  for (auto& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kReadyDirectory) {
      empty_directory(s.path);
      ::rmdir(s.path);
    }
}

std::size_t count() noexcept {
  std::size_t n = 0;
  for (const auto& s : g_slots) n += s.state.load(std::memory_order_acquire) >= kReady ? 1 : 0;
  return n;
}

}  // namespace lumen::temp_files
