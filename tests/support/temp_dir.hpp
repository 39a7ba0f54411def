#pragma once
// Files for tests: a fresh temporary directory per test (removed afterwards) and a whole file read back.
// Standard C++ and POSIX only, so that every test binary can use it (tests/cli links no lumen library).
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace lumen::test {

// A directory $TMPDIR/<prefix>-XXXXXX, made unique by mkdtemp and removed with all it holds at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "lumen-test") {
    std::string t = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(t.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + t);
    p = t;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(p, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The path of `name` inside the directory.
  std::string operator/(const std::string& name) const { return (p / name).string(); }
  // The names of what the directory holds, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : std::filesystem::directory_iterator(p)) n.push_back(e.path().filename().string());
    std::sort(n.begin(), n.end());
    return n;
  }
  std::size_t count() const { return names().size(); }

  std::filesystem::path p;
};

// The bytes of a file ("" if it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace lumen::test
