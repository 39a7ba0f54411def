#pragma once
// A checkpoint's tensors as f32 weights, for both loaders (safetensors directories and GGUF files). F32 values at an
// aligned address are used in place: a view of the file's map, nothing copied (weight_in_place); so are F16 and BF16
// linear weights, kept at half size. Anything else is
// copied: never zero-filled (reserved, then appended in order, so the first touch of each page is the copy), the
// storage advised into huge pages, read from the file a chunk at a time (pread: the map is not touched, so its pages
// never count in the process's memory beside the copy), widened or dequantised. Both are checked finite.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/ggml_types.hpp"
#include "io/mapped_file.hpp"
#include "lumen/model/param.hpp"

namespace lumen::model {

// The n elements stored as `type` at byte `at` of `file` as a view of its map, when they are F32 (or, keep_half,
// F16 or BF16: a linear weight the forward widens a tile at a time) at an address aligned for them; nullopt
// otherwise (the caller copies). in_out_rows > 0: a linear weight stored (in, out) with in = in_out_rows, viewed as
// such. InputError naming the file, `tensor` and the element for a NaN or an infinity.
std::optional<Param> weight_in_place(const std::shared_ptr<const io::MappedFile>& file, std::size_t at, std::size_t n,
                                     const io::GgmlType& type, const std::string& tensor, std::size_t in_out_rows = 0,
                                     bool keep_half = false);

// Room for n more floats in v.
void reserve_more(std::vector<float>& v, std::size_t n);

// Appends the n elements stored as `type` (F32, F16, BF16, or a quantised type dequantize_row reads) at byte `at` of
// `file`; n is a multiple of type.block. InputError naming the file, `tensor` and the element for a NaN or an
// infinity.
void append_f32(std::vector<float>& out, const io::MappedFile& file, std::size_t at, std::size_t n,
                const io::GgmlType& type, const std::string& tensor);

// Appends the (cols, rows) transpose of `in` (rows, cols): a block of 16 output rows at a time.
void append_transposed(std::vector<float>& out, const float* in, std::size_t rows, std::size_t cols);

}  // namespace lumen::model
