#pragma once
// The one way lumen opens a file for reading: non-blocking, then fstat of the descriptor opened, so a FIFO is
// refused rather than waited on and the check cannot meet another file than the one read.
#include <string>
#include <sys/stat.h>

namespace lumen::detail {

enum class FollowSymlinks { yes, no };

// A descriptor (O_RDONLY | O_CLOEXEC, blocking again) on `path`, which fstat shows to be a regular file; `st` is
// that fstat. The caller closes it. Throws IoError naming the path and what it is (a directory, a FIFO, a symlink
// loop, missing) otherwise. With FollowSymlinks::no a path whose last component is a symlink is refused.
int open_regular_file(const std::string& path, FollowSymlinks follow, struct stat& st);

}  // namespace lumen::detail
