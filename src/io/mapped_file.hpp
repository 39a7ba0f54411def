#pragma once
// A read-only memory map of a whole file: binary readers parse it in place, and safetensors/.npy tables borrow it
// (Matrix::borrow with the map as keepalive), so opening them copies nothing. Text tables are read through read().
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace lumen::io {

// Who and what the opened file is, from the descriptor that was mapped (no second look-up by path that could meet
// another file): what the conversion cache fingerprints its source by and checks its own entries against.
struct FileIdentity {
  std::uint64_t device = 0, inode = 0;
  std::uint32_t owner = 0;  // uid
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
};

class MappedFile {
 public:
  enum class Symlinks { follow, refuse };
  // Throws IoError if the file cannot be opened or mapped, or is not a regular file (a FIFO is never waited on).
  // With Symlinks::refuse a path whose last component is a symlink is refused too (O_NOFOLLOW). An empty file maps
  // to size() == 0.
  static std::shared_ptr<const MappedFile> open(const std::string& path, Symlinks symlinks = Symlinks::follow);
  // A map over bytes already in memory (fuzzing, tests): no file, no copy; `bytes` must outlive it.
  static std::shared_ptr<const MappedFile> over(std::string_view bytes, std::string name);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  const FileIdentity& identity() const { return identity_; }  // all zero for over()
  // Copies the file's bytes [offset, offset + n) into dst. For a file this is a read of the file (pread), not of
  // the map: the kernel copies from its page cache through its own large-page mapping, where parsing a map's 4 kB
  // pages in place costs a TLB miss and a page-table walk each, and leaves them resident. Text tables are parsed
  // from such copies, a few hundred kB at a time. Throws IoError if the file has shrunk since it was opened.
  void read(std::size_t offset, char* dst, std::size_t n) const;

 private:
  MappedFile() = default;
  std::string path_;
  FileIdentity identity_;
  const char* data_ = "";
  std::size_t size_ = 0;
  bool mapped_ = false;
  int fd_ = -1;  // kept open for read()
};

}  // namespace lumen::io
