#pragma once
// Hot loops shared by every module, dispatched at run time (see simd.hpp).
// Every variant computes in the same order (16 lanes, mul then add, the same reduction tree),
// so all of them return bit-identical results: tests/core/test_kernels.cpp checks it.
#include <cstddef>
#include <cstdint>

#include "lumen/core/dtype.hpp"
#include "lumen/core/kernel_table.hpp"
#include "lumen/core/simd.hpp"

namespace lumen::kernels {

const Table& table(Isa isa);  // throws UsageError for an ISA this CPU lacks
const Table& active();        // the table for active_isa()

inline float dot(const float* a, const float* b, std::size_t n) { return active().dot_f32(a, b, n); }
inline float dot_f16(const float* q, const std::uint16_t* r, std::size_t n) { return active().dot_f16(q, r, n); }
inline float dot_bf16(const float* q, const std::uint16_t* r, std::size_t n) { return active().dot_bf16(q, r, n); }
inline void f16_to_f32(const std::uint16_t* s, float* d, std::size_t n) { active().f16_to_f32(s, d, n); }
inline void bf16_to_f32(const std::uint16_t* s, float* d, std::size_t n) { active().bf16_to_f32(s, d, n); }
// n 16-bit values of `dtype` (f16 or bf16) widened to f32.
inline void half_to_f32(DType dtype, const std::uint16_t* s, float* d, std::size_t n) {
  if (dtype == DType::bf16) bf16_to_f32(s, d, n);
  else f16_to_f32(s, d, n);
}
inline void f32_to_f16(const float* s, std::uint16_t* d, std::size_t n) { active().f32_to_f16(s, d, n); }
inline void f32_to_bf16(const float* s, std::uint16_t* d, std::size_t n) { active().f32_to_bf16(s, d, n); }
inline void add(float* y, const float* x, std::size_t n) { active().add_f32(y, x, n); }
inline void axpy(float* y, float a, const float* x, std::size_t n) { active().axpy_f32(y, a, x, n); }

}  // namespace lumen::kernels
