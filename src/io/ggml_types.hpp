#pragma once
// ggml's tensor types as GGUF files store them: each type's block (elements per block) and the bytes a block
// takes, and the dequantisation of the quantised types lumen reads (Q8_0, Q4_0, Q4_K, Q6_K), element for element
// as ggml's reference dequantize_row_* compute them (ggml-quants.c: d * q in f32, never fused).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace lumen::io {

struct GgmlType {
  std::uint32_t id = 0;
  std::string_view name;
  std::size_t block = 1;        // elements per block (1 for the plain types)
  std::size_t block_bytes = 0;  // bytes per block
  bool readable = false;        // lumen reads it: F32, F16, BF16 as stored, the others through dequantize_row
};

// The type with ggml id `id`; nullopt for an id ggml does not define (or has retired).
std::optional<GgmlType> ggml_type(std::uint32_t id);

// y (n) = the n elements stored at `blocks` (n / type.block blocks), as f32: Q8_0, Q4_0, Q4_K and Q6_K. n must be a
// multiple of type.block (the caller checks it).
void dequantize_row(const GgmlType& type, const void* blocks, float* y, std::size_t n);

}  // namespace lumen::io
