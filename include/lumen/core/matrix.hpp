#pragma once
// A dense row-major matrix (rows x cols) of f32, f16 or bf16.
// Owned storage is 64-byte aligned; a borrowed matrix points into memory kept alive by `keepalive`
// (e.g. an mmap'ed file), so opening a large table copies nothing.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "lumen/core/dtype.hpp"

namespace lumen {

class Matrix {
 public:
  Matrix() = default;
  // Zero-filled, owned, 64-byte aligned.
  Matrix(std::size_t rows, std::size_t cols, DType dtype = DType::f32);
  // Owned and aligned the same, its bytes not set: for a caller that writes every element before reading any (a
  // parser filling rows from several threads touches its own pages first, instead of one serial memset).
  static Matrix uninitialized(std::size_t rows, std::size_t cols, DType dtype = DType::f32);
  // Borrows `data` (rows*cols elements of dtype); `keepalive` owns whatever backs it.
  static Matrix borrow(const void* data, std::size_t rows, std::size_t cols, DType dtype,
                       std::shared_ptr<const void> keepalive = nullptr);

  Matrix(Matrix&&) noexcept = default;
  Matrix& operator=(Matrix&&) noexcept = default;
  Matrix(const Matrix&) = delete;  // copies are explicit: clone()
  Matrix& operator=(const Matrix&) = delete;

  Matrix clone() const;          // deep, owned copy
  Matrix to(DType dtype) const;  // converted, owned copy (round to nearest even)

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  DType dtype() const { return dtype_; }
  bool owned() const { return owned_; }
  bool empty() const { return rows_ == 0 || cols_ == 0; }
  std::size_t size() const { return rows_ * cols_; }
  std::size_t row_bytes() const { return cols_ * dtype_size(dtype_); }
  std::size_t bytes() const { return rows_ * row_bytes(); }

  const std::byte* data() const { return data_; }
  // Writable data: only for owned matrices (throws Error on a borrowed one).
  std::byte* mutable_data();
  const std::byte* row_ptr(std::size_t r) const { return data_ + r * row_bytes(); }

  // f32 views: throw Error unless dtype() == f32.
  std::span<const float> f32() const;
  std::span<float> f32_mut();
  std::span<const float> row(std::size_t r) const { return f32().subspan(r * cols_, cols_); }
  std::span<float> row_mut(std::size_t r) { return f32_mut().subspan(r * cols_, cols_); }

  // Row r converted to f32 into out (cols() floats), whatever the dtype.
  void row_f32(std::size_t r, float* out) const;
  float at(std::size_t r, std::size_t c) const;
  // Whether every value of row r is finite (no NaN, no +-Inf): what maps and comparisons leave a row out by.
  bool row_finite(std::size_t r) const;
  // Sets element (r, c) from an f32 value, rounding to the storage type. Owned only.
  void set(std::size_t r, std::size_t c, float v);

  // The first n rows as a borrowed view (shares this matrix's storage; keep this alive).
  Matrix head(std::size_t n) const;
  // Keeps the first n rows (n <= rows()) of an owned matrix in place: a reader that sized E by an upper bound on
  // its rows trims it without a copy (pages never written were never backed by memory).
  void keep_rows(std::size_t n);

 private:
  void allocate(bool zero);  // storage for rows_ x cols_ of dtype_ (zero: every byte 0, else only the padding)
  struct AlignedFree {
    void operator()(std::byte* p) const;
  };
  std::size_t rows_ = 0, cols_ = 0;
  DType dtype_ = DType::f32;
  bool owned_ = true;
  std::byte* data_ = nullptr;
  std::shared_ptr<std::byte> storage_;     // owned storage
  std::shared_ptr<const void> keepalive_;  // borrowed storage's owner
};

}  // namespace lumen
