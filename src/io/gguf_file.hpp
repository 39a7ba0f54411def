#pragma once
// The parsed header of a memory-mapped GGUF file (llama.cpp's format, versions 2 and 3): its metadata and each
// tensor's name, shape, ggml type and byte range, every count and offset checked against the file before use.
// Layout (little-endian): "GGUF", u32 version, u64 tensor count, u64 metadata count; the metadata key/values;
// the tensor infos (name, u32 n_dims, u64 ne[n_dims], u32 type, u64 offset); padding to general.alignment
// (default 32); the data, each tensor at its offset from there. ne[0] is the innermost dimension: a (V, d) table
// has ne = {d, V}.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "io/ggml_types.hpp"
#include "io/mapped_file.hpp"

namespace lumen::io {

// A metadata value. Integers of every width are kept as their signed or unsigned 64-bit value; arrays keep their
// element type's id (GGUF's value types: 0 u8, 1 i8, 2 u16, 3 i16, 4 u32, 5 i32, 6 f32, 7 bool, 8 string,
// 9 array, 10 u64, 11 i64, 12 f64).
struct GgufValue {
  std::uint32_t type = 0;
  std::variant<std::uint64_t, std::int64_t, double, bool, std::string, std::vector<GgufValue>> value;
  std::uint32_t element_type = 0;  // arrays only
  std::uint64_t offset = 0;        // where the value starts in the file (for errors)
};

struct GgufEntry {
  std::string key;
  GgufValue value;
};

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> ne;  // ne[0] innermost
  GgmlType type;
  std::uint64_t begin = 0, end = 0;  // absolute byte range in the file
  std::uint64_t info_offset = 0;     // where its tensor info starts (for errors)
};

struct GgufFile {
  std::shared_ptr<const MappedFile> file;
  std::uint32_t version = 0;
  std::uint64_t alignment = 32;
  std::vector<GgufEntry> metadata;  // in file order, keys unique
  std::vector<GgufTensor> tensors;  // in file order, names unique

  const GgufValue* find(std::string_view key) const;
  const GgufTensor* tensor(std::string_view name) const;
};

// Throws ParseError naming the file and the byte offset for a truncated file, a count or length larger than the
// file, a repeated key or tensor name, an unknown value or ggml type, dimensions whose product overflows, a bad
// alignment, or tensor data out of bounds, misaligned or overlapping.
GgufFile parse_gguf(std::shared_ptr<const MappedFile> file);

}  // namespace lumen::io
