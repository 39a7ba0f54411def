#include "lumen/core/data_paths.hpp"

#include <filesystem>
#include <mutex>

namespace lumen {

namespace {

namespace fs = std::filesystem;

// Function-local, so that a face may set the paths from its own static initialisers (the tests do).
struct Store {
  std::mutex mutex;
  DataPaths paths;
};
Store& store() {
  static Store s;
  return s;
}

}  // namespace

DataPaths find_data_paths(const std::string& dir) {
  DataPaths found;
  if (dir.empty()) return found;
  std::error_code ec;
  for (const fs::path& root : {fs::path(dir), fs::path(dir) / ".." / "share" / "lumen"}) {
    if (found.default_table.empty() && fs::is_directory(root / "default", ec))
      found.default_table = (root / "default" / "brown.vec").lexically_normal().string();
    if (found.gpt2_dir.empty() && fs::is_regular_file(root / "gpt2" / "encoder.json", ec))
      found.gpt2_dir = (root / "gpt2").lexically_normal().string();
  }
  // A build tree whose table is not made yet: name where it would go, so the error says what to build.
  if (found.default_table.empty())
    found.default_table = (fs::path(dir) / "default" / "brown.vec").lexically_normal().string();
  return found;
}

void set_data_paths(DataPaths paths) {
  Store& s = store();
  const std::lock_guard lock(s.mutex);
  s.paths = std::move(paths);
}

DataPaths data_paths() {
  Store& s = store();
  const std::lock_guard lock(s.mutex);
  return s.paths;
}

}  // namespace lumen
