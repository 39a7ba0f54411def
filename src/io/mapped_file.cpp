#include "io/mapped_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/regular_file.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, Symlinks symlinks) {
  struct stat st {};
  const int fd = lumen::detail::open_regular_file(
      path, symlinks == Symlinks::refuse ? lumen::detail::FollowSymlinks::no : lumen::detail::FollowSymlinks::yes, st);
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->path_ = path;
  m->size_ = static_cast<std::size_t>(st.st_size);
  m->identity_ = {static_cast<std::uint64_t>(st.st_dev),
                  static_cast<std::uint64_t>(st.st_ino),
                  static_cast<std::uint32_t>(st.st_uid),
                  static_cast<std::uint64_t>(st.st_size),
                  static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
                  static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec};
  if (m->size_ != 0) {
    void* p = ::mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw IoError(fmt::format("cannot map {}: {}", path, std::strerror(err)));
    }
    // A hint, so failure is ignored: pages this mapping reads in from disk come into the page cache as 2 MB
    // folios, which every later mapping of the file maps a PMD at a time. Where each 4 kB page's first touch is
    // dear (a virtual machine's shadow page tables), that is 20-60 ms against 2 ms for a 154 MB table.
    ::madvise(p, m->size_, MADV_HUGEPAGE);
    m->data_ = static_cast<const char*>(p);
    m->mapped_ = true;
  }
  m->fd_ = fd;  // for read(); the mapping needs no descriptor
  return m;
}

std::shared_ptr<const MappedFile> MappedFile::over(std::string_view bytes, std::string name) {
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->path_ = std::move(name);
  m->data_ = bytes.data() != nullptr ? bytes.data() : "";
  m->size_ = bytes.size();
  return m;
}

void MappedFile::read(std::size_t offset, char* dst, std::size_t n) const {
  if (offset > size_ || n > size_ - offset)
    throw IoError(
        fmt::format("cannot read {}: bytes {}..{} lie past its end ({} bytes)", path_, offset, offset + n, size_));
  if (fd_ < 0) {
    std::memcpy(dst, data_ + offset, n);
    return;
  }
  while (n > 0) {
    const ssize_t got = ::pread(fd_, dst, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw IoError(fmt::format("cannot read {} at byte {}: {}", path_, offset,
                                got < 0 ? std::strerror(errno) : "the file has shrunk since it was opened"));
    dst += got, offset += static_cast<std::size_t>(got), n -= static_cast<std::size_t>(got);
  }
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace lumen::io
