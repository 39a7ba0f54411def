#include "model/weight_copy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/huge_pages.hpp"
#include "lumen/core/kernels.hpp"

namespace lumen::model {

namespace {

// InputError at the first non-finite value of x (n floats, element `first` of the tensor) if there is one. The scan
// tests exponent bits (all ones: NaN or infinity), which the compiler vectorises, and locates the value only then.
void check_finite(const float* x, std::size_t n, std::size_t first, const std::string& path,
                  const std::string& tensor) {
  constexpr std::uint32_t kExponent = 0x7f800000u;
  constexpr std::size_t kBlock = 4096;
  for (std::size_t i = 0; i < n; i += kBlock) {
    const std::size_t k = std::min(kBlock, n - i);
    std::uint32_t bad = 0;
    for (std::size_t j = 0; j < k; ++j) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, x + i + j, sizeof bits);
      bad |= static_cast<std::uint32_t>((bits & kExponent) == kExponent);
    }
    if (bad == 0) continue;
    for (std::size_t j = 0; j < k; ++j)
      if (!std::isfinite(x[i + j]))
        throw InputError(fmt::format("{}: tensor '{}' holds {} at element {}; weights must be finite", path, tensor,
                                     std::isnan(x[i + j]) ? "NaN" : "an infinity", first + i + j));
  }
}

// The same for f16 or bf16 bits: `exponent` is the format's exponent mask (all ones: NaN or infinity).
void check_finite_half(const std::uint16_t* x, std::size_t n, std::uint16_t exponent, const std::string& path,
                       const std::string& tensor) {
  std::uint16_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad |= static_cast<std::uint16_t>((x[i] & exponent) == exponent);
  if (bad == 0) return;
  for (std::size_t i = 0; i < n; ++i)
    if ((x[i] & exponent) == exponent)
      throw InputError(
          fmt::format("{}: tensor '{}' holds {} at element {}; weights must be finite", path, tensor,
                      (x[i] & static_cast<std::uint16_t>(~exponent & 0x7fffu)) != 0 ? "NaN" : "an infinity", i));
}

}  // namespace

std::optional<Param> weight_in_place(const std::shared_ptr<const io::MappedFile>& file, std::size_t at, std::size_t n,
                                     const io::GgmlType& type, const std::string& tensor, std::size_t in_out_rows,
                                     bool keep_half) {
  const bool f16 = type.name == "F16", bf16 = type.name == "BF16", half = keep_half && (f16 || bf16);
  if (type.name != "F32" && !half) return std::nullopt;
  const std::size_t width = half ? sizeof(std::uint16_t) : sizeof(float);
  if (n == 0 || at + n * width > file->size()) return std::nullopt;
  const char* p = file->data() + at;
  if (reinterpret_cast<std::uintptr_t>(p) % width != 0) return std::nullopt;
  const std::size_t rows = in_out_rows > 0 ? in_out_rows : 1;
  Matrix m = Matrix::borrow(p, rows, n / rows, half ? (f16 ? DType::f16 : DType::bf16) : DType::f32, file);
  if (!half) {
    check_finite(m.f32().data(), n, 0, file->path(), tensor);
    return Param::view(std::move(m), in_out_rows > 0);
  }
  Param w = Param::view(std::move(m), in_out_rows > 0);
  check_finite_half(w.half(), n, f16 ? 0x7c00u : 0x7f80u, file->path(), tensor);
  return w;
}

void reserve_more(std::vector<float>& v, std::size_t n) {
  v.reserve(v.size() + n);
  advise_huge_pages(v.data() + v.size(), n * sizeof(float));
}

void append_f32(std::vector<float>& out, const io::MappedFile& file, std::size_t at, std::size_t n,
                const io::GgmlType& type, const std::string& tensor) {
  constexpr std::size_t kChunk = std::size_t{1} << 16;  // elements: whole blocks of every ggml type
  const bool f32 = type.name == "F32", f16 = type.name == "F16", bf16 = type.name == "BF16";
  const std::size_t chunk = std::min(n, kChunk);
  std::vector<float> wide(chunk);
  std::vector<char> raw(f32 ? 0 : (chunk + type.block - 1) / type.block * type.block_bytes);
  reserve_more(out, n);
  for (std::size_t i = 0; i < n; i += kChunk) {
    const std::size_t k = std::min(kChunk, n - i), bytes = k / type.block * type.block_bytes;
    const std::size_t from = at + i / type.block * type.block_bytes;
    if (f32) {
      file.read(from, reinterpret_cast<char*>(wide.data()), bytes);
    } else {
      file.read(from, raw.data(), bytes);
      const auto* half = reinterpret_cast<const std::uint16_t*>(raw.data());
      if (f16) kernels::f16_to_f32(half, wide.data(), k);
      else if (bf16) kernels::bf16_to_f32(half, wide.data(), k);
      else io::dequantize_row(type, raw.data(), wide.data(), k);
    }
    check_finite(wide.data(), k, i, file.path(), tensor);
    out.insert(out.end(), wide.begin(), wide.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

void append_transposed(std::vector<float>& out, const float* in, std::size_t rows, std::size_t cols) {
  constexpr std::size_t kRows = 16;  // 64 bytes of each input row per block; the block stays in cache
  std::vector<float> block(kRows * rows);
  reserve_more(out, rows * cols);
  for (std::size_t j0 = 0; j0 < cols; j0 += kRows) {
    const std::size_t jb = std::min(kRows, cols - j0);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < jb; ++j) block[j * rows + i] = in[i * cols + j0 + j];
    out.insert(out.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(jb * rows));
  }
}

}  // namespace lumen::model
