#pragma once
// A directory written as a whole (a model directory: config.json, model.safetensors, the tokenizer's files): its
// files go into a temporary directory beside the target (NAME.tmp-XXXXXX, registered with lumen::temp_files so
// that a signal handler removes it too), and commit() puts that directory in the target's place, replacing what
// was there: no file of an earlier directory (another tokenizer's) is left beside the new ones, and an error, an
// exception or a signal before commit() leaves the target as it was and no temporary behind.
//
// Replacing deletes the old directory, so an existing target is replaced only when it holds nothing but files of
// the names the writer makes (`names`): a directory holding anything else (a user's notes, a subdirectory) is
// refused before anything is written. A symlink to a directory is followed: the directory it leads to is
// replaced and the link stays a link, as AtomicFile does for files.
#include <string>
#include <string_view>
#include <vector>

namespace lumen {

class AtomicDir {
 public:
  // Throws UsageError when the target exists and is not a directory, or holds an entry not among `names`;
  // IoError when the temporary directory cannot be created.
  AtomicDir(std::string path, std::vector<std::string> names);
  ~AtomicDir();  // not committed: the temporary directory and everything in it are removed
  AtomicDir(const AtomicDir&) = delete;
  AtomicDir& operator=(const AtomicDir&) = delete;

  // Where to write the file `name` (one of `names`) now: inside the temporary directory.
  std::string file(std::string_view name) const;
  // Syncs the directory and puts it in the target's place (an existing target is swapped out atomically with
  // renameat2(RENAME_EXCHANGE) where the filesystem has it, else renamed aside first), then removes the old one.
  // Throws IoError on failure (the target is then as it was).
  void commit();
  const std::string& path() const { return path_; }      // as given
  const std::string& target() const { return target_; }  // where it lands (symlinks resolved)

  // What the constructor checks, before a long computation: throws UsageError if `path` could not be replaced
  // by a directory of `names` (see above).
  static void check_replaceable(const std::string& path, const std::vector<std::string>& names);

 private:
  std::string path_, target_, tmp_;
  std::vector<std::string> names_;
  int slot_ = -1;  // in lumen::temp_files
  bool committed_ = false;
};

}  // namespace lumen
