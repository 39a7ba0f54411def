#include "lumen/core/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "core/regular_file.hpp"
#include "lumen/core/error.hpp"

namespace lumen {

namespace detail {

namespace {
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "a special file";
}
}  // namespace

int open_regular_file(const std::string& path, FollowSymlinks follow, struct stat& st) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. On a regular file it changes
  // nothing, and it is cleared below all the same.
  const int fd = ::open(path.c_str(),
                        O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (follow == FollowSymlinks::no ? O_NOFOLLOW : 0));
  if (fd < 0) {
    const int err = errno;
    throw IoError(
        fmt::format("cannot open {}: {}", path,
                    err == ELOOP    ? (follow == FollowSymlinks::no ? "it is a symlink, which is not followed"
                                                                    : "a symlink loop (too many levels of symbolic links)")
                    : err == ENOENT ? "no such file or directory"
                                    : std::strerror(err)));
  }
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError(fmt::format("cannot stat {}: {}", path, std::strerror(err)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IoError(fmt::format("cannot read {}: is {}, not a regular file", path, kind_of(st.st_mode)));
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

}  // namespace detail

std::string read_file(const std::string& path) {
  struct stat st {};
  const int fd = detail::open_regular_file(path, detail::FollowSymlinks::yes, st);
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw IoError(fmt::format("cannot read {}: {}", path, std::strerror(err)));
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

void require_regular_file(const std::string& path) {
  struct stat st {};
  ::close(detail::open_regular_file(path, detail::FollowSymlinks::yes, st));
}

}  // namespace lumen
