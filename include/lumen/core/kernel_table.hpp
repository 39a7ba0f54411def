#pragma once
// The function table one ISA provides; each kernels_<isa>.cpp defines one.
// Kernel files compiled with ISA flags include only this header and intrinsics: an inline function or
// template from a shared header compiled there could be picked by the linker for the baseline build.
#include <cstddef>
#include <cstdint>

namespace lumen::kernels {

// The function table one ISA provides. Kernel files define one each.
struct Table {
  float (*dot_f32)(const float* a, const float* b, std::size_t n);
  float (*dot_f16)(const float* q, const std::uint16_t* row, std::size_t n);   // f32 query . f16 row
  float (*dot_bf16)(const float* q, const std::uint16_t* row, std::size_t n);  // f32 query . bf16 row
  void (*f16_to_f32)(const std::uint16_t* src, float* dst, std::size_t n);
  void (*bf16_to_f32)(const std::uint16_t* src, float* dst, std::size_t n);
  void (*f32_to_f16)(const float* src, std::uint16_t* dst, std::size_t n);
  void (*f32_to_bf16)(const float* src, std::uint16_t* dst, std::size_t n);
  void (*add_f32)(float* y, const float* x, std::size_t n);            // y += x
  void (*axpy_f32)(float* y, float a, const float* x, std::size_t n);  // y += a*x
};

extern const Table kGeneric;
extern const Table kAvx2;
extern const Table kAvx512;

}  // namespace lumen::kernels
