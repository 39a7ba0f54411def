#pragma once
// A read-only memory map of a whole file: readers parse it in place, and safetensors/.npy tables borrow it
// (Matrix::borrow with the map as keepalive), so opening them copies nothing.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace lumen::io {

class MappedFile {
 public:
  // Throws IoError if the file cannot be opened or mapped. An empty file maps to size() == 0.
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  // A map over bytes already in memory (fuzzing, tests): no file, no copy; `bytes` must outlive it.
  static std::shared_ptr<const MappedFile> over(std::string_view bytes, std::string name);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  // Drops the pages lying wholly inside [from, to) from this process's resident memory once they are parsed
  // (the kernel's page cache keeps them; touching them again reads them back unchanged, as the map is private
  // and never written). Keeps a text table's peak memory at the table plus the pages in flight. No-op for
  // over() maps, whose bytes belong to the caller.
  void release(const char* from, const char* to) const;
  // Maps the pages of [from, to) in one call (MADV_POPULATE_READ), ahead of a pass that reads them all: one
  // system call instead of a page fault per few pages. No-op where the kernel lacks it, and for over() maps.
  void populate(const char* from, const char* to) const;

 private:
  MappedFile() = default;
  std::string path_;
  const char* data_ = "";
  std::size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace lumen::io
