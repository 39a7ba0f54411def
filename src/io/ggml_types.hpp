#pragma once
// ggml's tensor types as GGUF files store them: each type's block (elements per block) and the bytes a block
// takes, and the dequantisation of the types lumen reads (F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q6_K), element for
// element as ggml's reference dequantize_row_* compute them (ggml-quants.c: d * q in f32, never fused).
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
  bool readable = false;        // dequantize_row handles it
};

// The type with ggml id `id`; nullopt for an id ggml does not define (or has retired).
std::optional<GgmlType> ggml_type(std::uint32_t id);

// y (n) = the n elements stored at `blocks` (n / type.block blocks), as f32. n must be a multiple of type.block and
// the type readable (the caller checks both).
void dequantize_row(const GgmlType& type, const void* blocks, float* y, std::size_t n);

}  // namespace lumen::io
