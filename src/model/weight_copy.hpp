#pragma once
// Copying a checkpoint's tensors into f32 weights, for both loaders (safetensors directories and GGUF files): never
// zero-filled (reserved, then appended in order, so the first touch of each page is the copy), the storage advised
// into huge pages, read from the file a chunk at a time (pread: the file's map is never touched, so its pages never
// count in the process's memory beside the weights), widened or dequantised, and checked finite.
#include <cstddef>
#include <string>
#include <vector>

#include "io/ggml_types.hpp"
#include "io/mapped_file.hpp"

namespace lumen::model {

// Room for n more floats in v.
void reserve_more(std::vector<float>& v, std::size_t n);

// Appends the n elements stored as `type` (F32, F16, BF16, or a quantised type dequantize_row reads) at byte `at` of
// `file`; n is a multiple of type.block. InputError naming the file, `tensor` and the element for a NaN or an
// infinity.
void append_f32(std::vector<float>& out, const io::MappedFile& file, std::size_t at, std::size_t n,
                const io::GgmlType& type, const std::string& tensor);

// Appends the (cols, rows) transpose of `in` (rows, cols): a block of 16 output rows at a time.
void append_transposed(std::vector<float>& out, const std::vector<float>& in, std::size_t rows, std::size_t cols);

}  // namespace lumen::model
