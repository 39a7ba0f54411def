#include "lumen/core/atomic_dir.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hold_interrupts.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/temp_files.hpp"

namespace lumen {

namespace fs = std::filesystem;

namespace {

// The directory a write to `path` replaces: symlinks followed (the link stays), absolute, `.`/`..` resolved,
// without a trailing separator.
std::string target_of(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(resolve_symlinks(path), ec);
  fs::path c = fs::weakly_canonical(p, ec);
  if (ec) c = p.lexically_normal();
  if (c.has_filename() == false && c.has_parent_path()) c = c.parent_path();  // "m/" is "m"
  return c.string();
}

// An entry of an existing target that replacing it may delete: a file of one of `names`, or an AtomicFile
// temporary of one (NAME.tmp-XXXXXX) that a killed process left.
bool replaceable_entry(const fs::directory_entry& e, const std::vector<std::string>& names) {
  std::error_code ec;
  if (e.is_directory(ec)) return false;
  const std::string name = e.path().filename().string();
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) {
    return name == n || (name.size() == n.size() + 11 && name.starts_with(n + ".tmp-"));
  });
}

void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void AtomicDir::check_replaceable(const std::string& path, const std::vector<std::string>& names) {
  const std::string target = target_of(path);
  if (fs::path(target).filename().empty() || !fs::path(target).has_parent_path() ||
      fs::path(target) == fs::path(target).root_path())
    throw UsageError(fmt::format("{}: cannot be replaced as a whole (it is the root directory)", path));
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) return;  // a new directory
  if (!S_ISDIR(st.st_mode))
    throw UsageError(
        fmt::format("{} exists and is not a directory; a directory is written there: choose a new "
                    "path, or remove it",
                    path));
  std::error_code ec;
  for (fs::directory_iterator it(target, ec), end; !ec && it != end; it.increment(ec))
    if (!replaceable_entry(*it, names))
      throw UsageError(fmt::format(
          "{} holds {}, which is not a file lumen writes there; the directory is replaced as a whole, which would "
          "delete it: choose a new directory, or move it away",
          path, it->path().filename().string()));
  if (ec) throw IoError(fmt::format("cannot read the directory {}: {}", path, ec.message()));
}

AtomicDir::AtomicDir(std::string path, std::vector<std::string> names)
    : path_(std::move(path)), target_(target_of(path_)), names_(std::move(names)) {
  check_replaceable(path_, names_);
  tmp_ = target_ + ".tmp-XXXXXX";
  const detail::HoldInterrupts hold;
  if (::mkdtemp(tmp_.data()) == nullptr)
    throw IoError(fmt::format("cannot create a directory beside {}: {}", path_, std::strerror(errno)));
  try {
    slot_ = temp_files::add_directory(tmp_.c_str());
  } catch (...) {
    ::rmdir(tmp_.c_str());
    throw;
  }
  ::chmod(tmp_.c_str(), 0755);
}

AtomicDir::~AtomicDir() {
  if (slot_ < 0) return;  // committed
  std::error_code ec;
  fs::remove_all(tmp_, ec);
  temp_files::release(slot_);
}

std::string AtomicDir::file(std::string_view name) const { return (fs::path(tmp_) / name).string(); }

void AtomicDir::commit() {
  if (committed_) return;
  sync_directory(tmp_);
  struct stat st {};
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (!exists && ::rename(tmp_.c_str(), target_.c_str()) == 0) {
    committed_ = true;
    temp_files::release(slot_);
    slot_ = -1;
  } else if (::renameat2(AT_FDCWD, tmp_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
    committed_ = true;  // the temporary's name now holds the old directory (still registered: a signal removes it)
    std::error_code ec;
    fs::remove_all(tmp_, ec);
    temp_files::release(slot_);
    slot_ = -1;
  } else if (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) {
    // No RENAME_EXCHANGE here (e.g. NFS): the old directory aside, the new one in its place.
    const std::string old = target_ + ".old-" + tmp_.substr(tmp_.size() - 6);
    {
      const detail::HoldInterrupts hold;
      if (::rename(target_.c_str(), old.c_str()) != 0)
        throw IoError(fmt::format("cannot rename {} to {}: {}", target_, old, std::strerror(errno)));
      if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
        const int err = errno;
        ::rename(old.c_str(), target_.c_str());
        throw IoError(fmt::format("cannot rename {} to {}: {}", tmp_, target_, std::strerror(err)));
      }
      committed_ = true;
      temp_files::release(slot_);
      slot_ = -1;
    }
    std::error_code ec;
    fs::remove_all(old, ec);
  } else {
    throw IoError(fmt::format("cannot put {} in place of {}: {}", tmp_, target_, std::strerror(errno)));
  }
  sync_directory(fs::path(target_).parent_path().string());
}

}  // namespace lumen
