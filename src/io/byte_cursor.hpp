#pragma once
// Bounds-checked reads of a binary file, front to back, with byte offsets for messages: the fastText and GGUF
// readers' one way through their bytes. Values are read in the host's byte order, little-endian on every CPU lumen
// builds for, as both formats store them.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <string>
#include <string_view>

#include "lumen/core/error.hpp"

namespace lumen::io {

struct ByteCursor {
  const char* data;
  std::size_t size, pos = 0;
  const std::string& name;

  std::size_t left() const { return size - pos; }
  [[noreturn]] void fail(std::uint64_t offset, const std::string& what) const {
    throw ParseError(name, 0, offset, what);
  }
  void need(std::size_t n, std::string_view what) const {
    if (left() < n) fail(pos, fmt::format("truncated file: expected {} ({} bytes), {} left", what, n, left()));
  }
  template <class T>
  T get(std::string_view what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, data + pos, sizeof(T));
    pos += sizeof(T);
    return v;
  }
  // A u64 byte count, then that many bytes (GGUF's string).
  std::string string64(std::string_view what) {
    const std::size_t at = pos;
    const auto n = get<std::uint64_t>(what);
    if (n > left())
      fail(at, fmt::format("{}: a string of {} bytes, more than the {} left in the file", what, n, left()));
    std::string s(data + pos, n);
    pos += n;
    return s;
  }
};

}  // namespace lumen::io
