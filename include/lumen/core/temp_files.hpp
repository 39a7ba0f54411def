#pragma once
// The temporary files lumen is writing at this moment (AtomicFile's NAME.tmp-XXXXXX, AtomicDir's directory
// NAME.tmp-XXXXXX), so that a signal handler can remove them before the process dies: an interrupted command
// leaves neither a half-written target nor a temporary beside it. The library never installs a handler; the
// CLI's calls remove_all() from its own.
#include <cstddef>

namespace lumen::temp_files {

// How many temporaries can be registered at once (a command writes a few; a full table is an error, not a leak).
inline constexpr std::size_t kCapacity = 64;

// Registers `path` (copied; at most PATH_MAX bytes). Returns its slot, for release(). Throws IoError when the
// path is too long or every slot is taken: a temporary that a signal could leave behind is never created.
int add(const char* path);
// Registers a temporary directory: remove_all() removes the entries in it (one level: what AtomicDir writes is
// flat) and then the directory. Same slots and errors as add().
int add_directory(const char* path);
// Forgets slot `slot` (after the file was renamed into place or removed). -1 is ignored.
void release(int slot) noexcept;
// Unlinks every registered path and empties and removes every registered directory. Async-signal-safe: only
// atomics, open(2), getdents64(2), unlinkat(2), rmdir(2) and close(2).
void remove_all() noexcept;
// How many paths are registered (for tests).
std::size_t count() noexcept;

}  // namespace lumen::temp_files
