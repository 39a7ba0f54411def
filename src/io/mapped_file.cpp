#include "io/mapped_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lumen/core/error.hpp"

namespace lumen::io {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (a hang); the fstat below then
  // refuses it like any other file that is not regular. On a regular file the flag changes nothing.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw IoError(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError(fmt::format("cannot stat {}: {}", path, std::strerror(err)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IoError(fmt::format("cannot read {}: is {}, not a regular file", path,
                              S_ISDIR(st.st_mode)    ? "a directory"
                              : S_ISFIFO(st.st_mode) ? "a FIFO"
                              : S_ISSOCK(st.st_mode) ? "a socket"
                              : S_ISCHR(st.st_mode)  ? "a character device"
                              : S_ISBLK(st.st_mode)  ? "a block device"
                                                     : "a special file"));
  }
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->path_ = path;
  m->size_ = static_cast<std::size_t>(st.st_size);
  if (m->size_ != 0) {
    void* p = ::mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw IoError(fmt::format("cannot map {}: {}", path, std::strerror(err)));
    }
    m->data_ = static_cast<const char*>(p);
    m->mapped_ = true;
  }
  ::close(fd);  // the mapping stays valid
  return m;
}

std::shared_ptr<const MappedFile> MappedFile::over(std::string_view bytes, std::string name) {
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->path_ = std::move(name);
  m->data_ = bytes.data() != nullptr ? bytes.data() : "";
  m->size_ = bytes.size();
  return m;
}

void MappedFile::release(const char* from, const char* to) const {
  if (!mapped_ || to <= from) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const char* b = from + (page - reinterpret_cast<std::uintptr_t>(from) % page) % page;  // whole pages only
  const char* e = to - reinterpret_cast<std::uintptr_t>(to) % page;
  if (e > b)  // advice: failure costs memory only
    (void)::madvise(const_cast<char*>(b), static_cast<std::size_t>(e - b), MADV_DONTNEED);
}

void MappedFile::populate(const char* from, const char* to) const {
#ifndef MADV_POPULATE_READ
  constexpr int MADV_POPULATE_READ = 22;  // Linux 5.14; older kernels answer EINVAL, which is ignored
#endif
  if (!mapped_ || to <= from) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const char* b = from - reinterpret_cast<std::uintptr_t>(from) % page;  // the pages touching [from, to)
  (void)::madvise(const_cast<char*>(b), static_cast<std::size_t>(to - b), MADV_POPULATE_READ);
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace lumen::io
