#pragma once
// Helpers for the io tests: a scratch directory, files from bytes, hashes as make_expected.py computes them.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include "lumen/core/table.hpp"

namespace lumen::io::test {

inline std::string formats_dir() {
  const char* env = std::getenv("LUMEN_DATA_DIR");
  return std::string(env != nullptr ? env : LUMEN_DATA_DIR) + "/formats";
}

inline std::string expected_dir() { return std::string(LUMEN_SOURCE_DIR) + "/tests/data/io"; }

// A fresh directory per test, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lumen-io-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }
  std::string write(std::string_view name, std::string_view bytes) const {
    const std::string p = file(name);
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  std::size_t count_files() const {
    std::size_t n = 0;
    for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(path_)) ++n;
    return n;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::uint64_t fnv64(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

inline std::uint64_t tokens_hash(const Table& t) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& tok : t.vocab.tokens()) {
    h = fnv64(tok, h);
    h = fnv64("\n", h);
  }
  return h;
}

inline std::uint64_t values_hash(const Table& t) {
  const Matrix f = t.E.to(DType::f32);
  return fnv64(std::string_view(reinterpret_cast<const char*>(f.data()), f.bytes()));
}

// Little-endian float32 bytes of the values.
inline std::string f32_bytes(std::initializer_list<float> v) {
  std::string s;
  for (float x : v) s.append(reinterpret_cast<const char*>(&x), 4);
  return s;
}

}  // namespace lumen::io::test
