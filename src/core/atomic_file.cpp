#include "lumen/core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lumen/core/error.hpp"

namespace lumen {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  tmp_ = path_ + ".tmp-XXXXXX";
  const int fd = mkstemp(tmp_.data());
  if (fd < 0) throw IoError(fmt::format("cannot create {}: {}", path_, std::strerror(errno)));
  fchmod(fd, 0644);
  fp_ = fdopen(fd, "wb");
  if (fp_ == nullptr) {
    ::close(fd);
    ::unlink(tmp_.c_str());
    throw IoError(fmt::format("cannot open {}: {}", tmp_, std::strerror(errno)));
  }
}

AtomicFile::~AtomicFile() {
  if (fp_ != nullptr) std::fclose(fp_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void AtomicFile::write(const void* data, std::size_t n) {
  if (n != 0 && std::fwrite(data, 1, n, fp_) != n)
    throw IoError(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
}

void AtomicFile::commit() {
  if (committed_) return;
  const bool bad = std::ferror(fp_) != 0 || std::fflush(fp_) != 0 || ::fsync(fileno(fp_)) != 0;
  const int err = errno;
  std::fclose(fp_);
  fp_ = nullptr;
  if (bad) throw IoError(fmt::format("cannot write {}: {}", path_, std::strerror(err)));
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw IoError(fmt::format("cannot rename {} to {}: {}", tmp_, path_, std::strerror(errno)));
  committed_ = true;
}

void write_file_atomic(const std::string& path, std::string_view contents) {
  AtomicFile f(path);
  f.write(contents);
  f.commit();
}

}  // namespace lumen
