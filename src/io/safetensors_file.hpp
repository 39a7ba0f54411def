#pragma once
// The parsed header of a memory-mapped safetensors file: each tensor's name, dtype, shape and byte range,
// checked (offsets inside the buffer, sizes matching shape and dtype, no overlaps). Used by the table reader
// (one tensor as E) and by the model loader (every tensor of a checkpoint).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/mapped_file.hpp"

namespace lumen::io {

struct SafetensorsTensor {
  std::string name;
  std::string dtype;  // "F32", "F16", "BF16", "I64", ...
  std::vector<std::uint64_t> shape;
  std::uint64_t begin = 0, end = 0;  // byte range in the buffer
};

struct SafetensorsFile {
  std::shared_ptr<const MappedFile> file;
  std::vector<SafetensorsTensor> tensors;  // in header order
  std::string metadata;                    // the __metadata__ object as JSON text ("" if none)
  std::uint64_t header_bytes = 0;          // N: the buffer starts at byte 8 + N
  const char* buffer() const { return file->data() + 8 + header_bytes; }
  const SafetensorsTensor* find(const std::string& want) const;
};

// Bytes per element of a safetensors dtype name; 0 if unknown.
std::size_t safetensors_dtype_bytes(const std::string& dtype);

// Throws ParseError naming the file, the byte offset and the tensor for anything malformed.
SafetensorsFile parse_safetensors(std::shared_ptr<const MappedFile> file);

}  // namespace lumen::io
