#include "model/weight_copy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/huge_pages.hpp"
#include "lumen/core/kernels.hpp"

namespace lumen::model {

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
    for (std::size_t j = 0; j < k; ++j)
      if (!std::isfinite(wide[j]))
        throw InputError(fmt::format("{}: tensor '{}' holds {} at element {}; weights must be finite", file.path(),
                                     tensor, std::isnan(wide[j]) ? "NaN" : "an infinity", i + j));
    out.insert(out.end(), wide.begin(), wide.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

void append_transposed(std::vector<float>& out, const std::vector<float>& in, std::size_t rows, std::size_t cols) {
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
