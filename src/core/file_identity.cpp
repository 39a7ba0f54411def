#include "lumen/core/file_identity.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

#include "lumen/core/error.hpp"

namespace lumen {

namespace {

bool stat_of(const std::string& path, struct stat& st) {
  return path == "-" ? ::fstat(STDOUT_FILENO, &st) == 0 : ::stat(path.c_str(), &st) == 0;
}

std::string absolute_resolved(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(resolve_symlinks(path), ec);  // "x" and "./x" alike
  std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);  // resolves the directories that exist
  if (ec) c = p.lexically_normal();
  return c.string();
}

}  // namespace

std::string resolve_symlinks(const std::string& path) {
  if (path == "-") return path;
  std::filesystem::path p = path;
  for (int hops = 0; hops < 40; ++hops) {  // 40: Linux's own limit (ELOOP)
    std::error_code ec;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) return p.string();
    const std::filesystem::path target = std::filesystem::read_symlink(p, ec);
    if (ec) throw IoError(fmt::format("cannot read the symlink {}: {}", p.string(), ec.message()));
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  throw IoError(fmt::format("{}: too many levels of symbolic links", path));
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {};
  struct stat sb {};
  const bool ea = stat_of(a, sa), eb = stat_of(b, sb);
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb || a == "-" || b == "-") return false;  // one exists and the other does not: two files
  return absolute_resolved(a) == absolute_resolved(b);
}

bool lies_within(const std::string& path, const std::string& dir) {
  if (path == "-" || dir == "-") return false;
  struct stat sd {};
  if (::stat(dir.c_str(), &sd) != 0) {  // not there yet: by the resolved paths, component by component
    const std::filesystem::path d = absolute_resolved(dir), p = absolute_resolved(path);
    const auto [d_end, p_end] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
    return d_end == d.end() || (std::next(d_end) == d.end() && d_end->empty());  // "m/" is "m"
  }
  if (!S_ISDIR(sd.st_mode)) return false;
  // Each directory above the path's real place (symlinks resolved where they exist), compared by device and
  // inode: a symlink to `dir`, `dir/./x` and `../d/x` all come to the same directory.
  std::filesystem::path p = absolute_resolved(path);
  for (;;) {
    struct stat sp {};
    if (::stat(p.c_str(), &sp) == 0 && sp.st_dev == sd.st_dev && sp.st_ino == sd.st_ino) return true;
    if (p == p.parent_path() || p.empty()) return false;
    p = p.parent_path();
  }
}

void check_outputs_apart(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                         const std::vector<std::string>& output_dirs) {
  for (std::size_t i = 0; i < output_dirs.size(); ++i) {
    const std::string& dir = output_dirs[i];
    for (const auto& in : inputs)
      if (lies_within(in, dir) || same_file(in, dir))
        throw UsageError(fmt::format(
            "the output directory {} is replaced as a whole, and the input {} {}: writing it would destroy the "
            "input; choose another output directory",
            dir, in, same_file(in, dir) ? "is that same path" : "lies inside it"));
    for (const auto& out : outputs)
      if (lies_within(out, dir) || same_file(out, dir))
        throw UsageError(
            fmt::format("the output {} lies inside the output directory {}, which is replaced as a whole: choose a "
                        "path outside it",
                        out, dir));
    for (std::size_t j = 0; j < i; ++j)
      if (lies_within(dir, output_dirs[j]) || lies_within(output_dirs[j], dir) || same_file(dir, output_dirs[j]))
        throw UsageError(
            fmt::format("the output directories {} and {} overlap; choose two apart", output_dirs[j], dir));
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const auto& in : inputs)
      if (same_file(outputs[i], in))
        throw UsageError(
            fmt::format("the output {} is the same file as the input {}; writing it would destroy the "
                        "input: choose another output path",
                        outputs[i], in));
    for (std::size_t j = 0; j < i; ++j)
      if (same_file(outputs[i], outputs[j]))
        throw UsageError(
            fmt::format("the outputs {} and {} are the same file; choose two different paths", outputs[j], outputs[i]));
  }
}

}  // namespace lumen
