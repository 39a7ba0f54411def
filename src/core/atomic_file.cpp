#include "lumen/core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hold_interrupts.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/temp_files.hpp"

namespace lumen {

AtomicFile::AtomicFile(std::string path, Target target) : path_(std::move(path)) {
  if (target == Target::replace_name) {
    target_ = path_;
    create_temporary();
    return;
  }
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {  // follows symlinks: what a write would reach
    if (S_ISDIR(st.st_mode)) throw IoError(fmt::format("cannot write {}: it is a directory", path_));
    open_in_place();
    return;
  }
  target_ = resolve_symlinks(path_);
  create_temporary();
}

AtomicFile::AtomicFile(StdoutTag) : path_("standard output"), in_place_(true) {
  const int fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);  // our own descriptor: closing it keeps stdout open
  if (fd < 0 || (fp_ = ::fdopen(fd, "wb")) == nullptr) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw IoError(fmt::format("cannot write to standard output: {}", std::strerror(err)));
  }
}

AtomicFile AtomicFile::standard_output() { return AtomicFile(StdoutTag{}); }

void AtomicFile::open_in_place() {
  in_place_ = true;
  // No O_CREAT, no O_TRUNC: the FIFO or device is written as it is, never replaced.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw IoError(fmt::format("cannot open {}: {}", path_, std::strerror(errno)));
  fp_ = ::fdopen(fd, "wb");
  if (fp_ == nullptr) {
    const int err = errno;
    ::close(fd);
    throw IoError(fmt::format("cannot open {}: {}", path_, std::strerror(err)));
  }
}

void AtomicFile::create_temporary() {
  tmp_ = target_ + ".tmp-XXXXXX";
  int fd = -1;
  {
    const detail::HoldInterrupts hold;
    fd = ::mkstemp(tmp_.data());
    if (fd < 0) throw IoError(fmt::format("cannot create {}: {}", path_, std::strerror(errno)));
    try {
      slot_ = temp_files::add(tmp_.c_str());
    } catch (...) {
      ::close(fd);
      ::unlink(tmp_.c_str());
      throw;
    }
  }
  ::fchmod(fd, 0644);
  fp_ = ::fdopen(fd, "wb");
  if (fp_ == nullptr) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp_.c_str());
    temp_files::release(slot_);
    slot_ = -1;
    throw IoError(fmt::format("cannot open {}: {}", tmp_, std::strerror(err)));
  }
}

AtomicFile::~AtomicFile() {
  if (fp_ != nullptr) std::fclose(fp_);
  if (!in_place_ && !committed_ && slot_ >= 0) {
    ::unlink(tmp_.c_str());
    temp_files::release(slot_);
  }
}

void AtomicFile::write(const void* data, std::size_t n) {
  if (n != 0 && std::fwrite(data, 1, n, fp_) != n)
    throw IoError(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
}

void AtomicFile::commit() {
  if (committed_) return;
  // fsync only a file of our own: a pipe or a device has nothing to sync (and may refuse it with EINVAL).
  const bool bad = std::ferror(fp_) != 0 || std::fflush(fp_) != 0 || (!in_place_ && ::fsync(fileno(fp_)) != 0);
  const int err = errno;
  const int closed = std::fclose(fp_);
  const int close_err = errno;
  fp_ = nullptr;
  if (bad) throw IoError(fmt::format("cannot write {}: {}", path_, std::strerror(err)));
  if (in_place_) {
    if (closed != 0) throw IoError(fmt::format("cannot write {}: {}", path_, std::strerror(close_err)));
    committed_ = true;
    return;
  }
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0)
    throw IoError(fmt::format("cannot rename {} to {}: {}", tmp_, target_, std::strerror(errno)));
  committed_ = true;
  temp_files::release(slot_);
  slot_ = -1;
}

void write_file_atomic(const std::string& path, std::string_view contents) {
  AtomicFile f(path);
  f.write(contents);
  f.commit();
}

}  // namespace lumen
