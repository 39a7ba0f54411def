#include "read_text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "lumen/core/error.hpp"

namespace lumen::eval::detail {

std::string read_text_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw IoError(path + ": cannot open: " + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw IoError(path + ": read error");
  return text;
}

}  // namespace lumen::eval::detail
