#pragma once
// Every file lumen writes goes through here: written to a temporary file beside the target, flushed,
// fsync'ed and renamed into place by commit(). If commit() is never reached (an error, an exception),
// the destructor removes the temporary file: an error never leaves a half-written output. The temporary is
// registered with lumen::temp_files while it exists, so that a signal handler can remove it too.
//
// What the target is decides how it is written (docs/formats.md, "Where convert writes"):
// - a regular file or a new path: atomically, as above;
// - a symlink: through it: the file it points to is replaced atomically (created if it does not exist yet), and
//   the link stays a link;
// - a FIFO, a character or block device, a socket (e.g. /dev/null, /dev/stdout on a pipe): written in place, as
//   a shell's `>` would; such a file cannot be replaced atomically, so an error can leave part of the data
//   written to it;
// - a directory: refused (IoError).
// With Target::replace_name none of that is looked at: the new file is made beside the name (O_EXCL, so a planted
// symlink is never followed) and renamed onto the name itself, replacing whatever is there (a symlink, a FIFO, a
// file) and writing through nothing: what a directory others may plant names in (the table cache) needs.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace lumen {

class AtomicFile {
 public:
  enum class Target { as_named, replace_name };
  // Throws IoError if the target cannot be opened or created.
  explicit AtomicFile(std::string path, Target target = Target::as_named);
  // Standard output, written in place (for an output path of "-").
  static AtomicFile standard_output();
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  std::FILE* stream() { return fp_; }  // for fmt::print(file.stream(), ...); errors are caught at commit()
  void commit();                       // flush, fsync, rename; throws IoError on failure
  const std::string& path() const { return path_; }
  bool in_place() const { return in_place_; }  // written directly (FIFO, device, stdout): nothing to rename

 private:
  struct StdoutTag {};
  explicit AtomicFile(StdoutTag);
  void open_in_place();
  void create_temporary();

  std::string path_, target_, tmp_;  // as given; where it lands (symlinks resolved); the temporary
  std::FILE* fp_ = nullptr;
  int slot_ = -1;  // in lumen::temp_files
  bool in_place_ = false;
  bool committed_ = false;
};

// Convenience: writes `contents` to `path` atomically.
void write_file_atomic(const std::string& path, std::string_view contents);

}  // namespace lumen
