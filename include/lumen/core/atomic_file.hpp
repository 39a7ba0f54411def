#pragma once
// Every file lumen writes goes through here: written to a temporary file beside the target, flushed,
// fsync'ed and renamed into place by commit(). If commit() is never reached (an error, an exception),
// the destructor removes the temporary file: an error never leaves a half-written output.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace lumen {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // throws IoError if the temporary file cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  std::FILE* stream() { return fp_; }  // for fmt::print(file.stream(), ...); errors are caught at commit()
  void commit();                       // flush, fsync, rename; throws IoError on failure
  const std::string& path() const { return path_; }

 private:
  std::string path_, tmp_;
  std::FILE* fp_ = nullptr;
  bool committed_ = false;
};

// Convenience: writes `contents` to `path` atomically.
void write_file_atomic(const std::string& path, std::string_view contents);

}  // namespace lumen
