#include "lumen/core/matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <new>
#include <sys/mman.h>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"

namespace lumen {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

void Matrix::AlignedFree::operator()(std::byte* p) const { std::free(p); }

Matrix::Matrix(std::size_t rows, std::size_t cols, DType dtype) : rows_(rows), cols_(cols), dtype_(dtype) {
  allocate(true);
}

Matrix Matrix::uninitialized(std::size_t rows, std::size_t cols, DType dtype) {
  Matrix m;
  m.rows_ = rows;
  m.cols_ = cols;
  m.dtype_ = dtype;
  m.allocate(false);
  return m;
}

void Matrix::allocate(bool zero) {
  const std::size_t rows = rows_, cols = cols_;
  const DType dtype = dtype_;
  const std::size_t esz = dtype_size(dtype);
  if (cols != 0 && rows > std::numeric_limits<std::size_t>::max() / cols / esz)
    throw Error(fmt::format("matrix {} x {} is too large", rows, cols));
  std::size_t bytes = rows * cols * esz;
  if (bytes == 0) return;
  // Large tables sit on 2 MB pages where the kernel allows it (THP "madvise" mode): a streaming pass over E then
  // crosses 512x fewer page boundaries, which the hardware prefetcher does not follow (measured: one search
  // pass over 154 MB, 7.4 ms on 4 KB pages, 4.9 ms on 2 MB pages, 2 threads).
  const bool huge = bytes >= 8 * kHugePage;  // rounding up to whole 2 MB pages then wastes at most 1/8
  const std::size_t align = huge ? kHugePage : 64;
  const std::size_t alloc = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, alloc);
  if (p == nullptr) throw Error(fmt::format("cannot allocate {} bytes for a {} x {} matrix", alloc, rows, cols));
#ifdef MADV_HUGEPAGE
  if (huge) (void)madvise(p, alloc, MADV_HUGEPAGE);  // advice only: without THP the pages stay 4 KB
#endif
  if (zero) std::memset(p, 0, alloc);
  else std::memset(static_cast<std::byte*>(p) + bytes, 0, alloc - bytes);  // the rounding up: never garbage
  storage_ = std::shared_ptr<std::byte>(static_cast<std::byte*>(p), AlignedFree{});
  data_ = storage_.get();
}

Matrix Matrix::borrow(const void* data, std::size_t rows, std::size_t cols, DType dtype,
                      std::shared_ptr<const void> keepalive) {
  Matrix m;
  m.rows_ = rows;
  m.cols_ = cols;
  m.dtype_ = dtype;
  m.owned_ = false;
  m.data_ = static_cast<std::byte*>(const_cast<void*>(data));
  m.keepalive_ = std::move(keepalive);
  return m;
}

Matrix Matrix::clone() const {
  Matrix m = uninitialized(rows_, cols_, dtype_);                // every byte copied below
  if (m.data_ != nullptr) std::memcpy(m.data_, data_, bytes());  // null iff bytes() == 0
  return m;
}

Matrix Matrix::to(DType dtype) const {
  if (dtype == dtype_) return clone();
  Matrix m(rows_, cols_, dtype);
  const std::size_t n = size();
  if (dtype_ == DType::f32) {
    const float* src = f32().data();
    if (dtype == DType::f16) kernels::f32_to_f16(src, reinterpret_cast<std::uint16_t*>(m.data_), n);
    else kernels::f32_to_bf16(src, reinterpret_cast<std::uint16_t*>(m.data_), n);
    return m;
  }
  if (dtype == DType::f32) {
    const auto* src = reinterpret_cast<const std::uint16_t*>(data_);
    float* dst = reinterpret_cast<float*>(m.data_);
    if (dtype_ == DType::f16) kernels::f16_to_f32(src, dst, n);
    else kernels::bf16_to_f32(src, dst, n);
    return m;
  }
  return to(DType::f32).to(dtype);  // f16 <-> bf16 through f32 (exact first step)
}

std::byte* Matrix::mutable_data() {
  if (!owned_) throw Error("cannot write into a borrowed (read-only) matrix; clone() it first");
  return data_;
}

std::span<const float> Matrix::f32() const {
  if (dtype_ != DType::f32) throw Error(fmt::format("expected an f32 matrix, got {}", dtype_name(dtype_)));
  return {reinterpret_cast<const float*>(data_), size()};
}

std::span<float> Matrix::f32_mut() {
  if (dtype_ != DType::f32) throw Error(fmt::format("expected an f32 matrix, got {}", dtype_name(dtype_)));
  return {reinterpret_cast<float*>(mutable_data()), size()};
}

void Matrix::row_f32(std::size_t r, float* out) const {
  const std::byte* p = row_ptr(r);
  switch (dtype_) {
    case DType::f32: std::memcpy(out, p, cols_ * sizeof(float)); break;
    case DType::f16: kernels::f16_to_f32(reinterpret_cast<const std::uint16_t*>(p), out, cols_); break;
    case DType::bf16: kernels::bf16_to_f32(reinterpret_cast<const std::uint16_t*>(p), out, cols_); break;
  }
}

bool Matrix::row_finite(std::size_t r) const {
  if (dtype_ == DType::f32) {
    const std::span<const float> x = row(r);
    return std::all_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); });
  }
  std::vector<float> x(cols_);
  row_f32(r, x.data());
  return std::all_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); });
}

float Matrix::at(std::size_t r, std::size_t c) const {
  const std::byte* p = row_ptr(r) + c * dtype_size(dtype_);
  std::uint16_t h;
  switch (dtype_) {
    case DType::f32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case DType::f16: std::memcpy(&h, p, 2); return f16_to_f32(h);
    case DType::bf16: std::memcpy(&h, p, 2); return bf16_to_f32(h);
  }
  return 0.0f;
}

void Matrix::set(std::size_t r, std::size_t c, float v) {
  std::byte* p = mutable_data() + r * row_bytes() + c * dtype_size(dtype_);
  std::uint16_t h = 0;
  switch (dtype_) {
    case DType::f32: std::memcpy(p, &v, 4); return;
    case DType::f16: h = f32_to_f16(v); break;
    case DType::bf16: h = f32_to_bf16(v); break;
  }
  std::memcpy(p, &h, 2);
}

void Matrix::keep_rows(std::size_t n) {
  if (!owned_) throw Error("cannot trim a borrowed (read-only) matrix; clone() it first");
  if (n > rows_) throw Error(fmt::format("cannot keep {} rows of a matrix of {}", n, rows_));
  const std::size_t used = n * row_bytes(), had = bytes();
  rows_ = n;
  // The bytes up to the next 64 are padding again, which kernels may read past the last row: never garbage.
  if (data_ != nullptr) std::memset(data_ + used, 0, std::min(had, (used + 63) / 64 * 64) - used);
}

Matrix Matrix::head(std::size_t n) const {
  if (n > rows_) n = rows_;
  Matrix m;
  m.rows_ = n;
  m.cols_ = cols_;
  m.dtype_ = dtype_;
  m.owned_ = false;
  m.data_ = data_;
  m.keepalive_ = storage_ ? std::shared_ptr<const void>(storage_) : keepalive_;
  return m;
}

}  // namespace lumen
