#include "lumen/core/file_identity.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
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

void check_outputs_apart(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
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
