#pragma once
// The scan kernels one ISA provides for search; each src/search/kernels_<isa>.cpp defines one.
// Plain header on purpose: kernel files compiled with ISA flags include only this and intrinsics.
// Every variant keeps lumen::kernels' order (16 lanes, mul then add, the same reduction tree), so a row's
// dot product is bit-identical to kernels::dot_* and the same in every variant.
#include <cstddef>
#include <cstdint>

namespace lumen::search {

struct ScanKernels {
  // out[i] = q . row i, for rows (n, d) stored contiguously (f32, f16 or bf16 bits).
  void (*dots_f32)(const float* q, const float* rows, std::size_t n, std::size_t d, float* out);
  void (*dots_f16)(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out);
  void (*dots_bf16)(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out);
  // out[i] = |q - row i|^2 (squared euclidean distance).
  void (*l2sq_f32)(const float* q, const float* rows, std::size_t n, std::size_t d, float* out);
  void (*l2sq_f16)(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out);
  void (*l2sq_bf16)(const float* q, const std::uint16_t* rows, std::size_t n, std::size_t d, float* out);
};

extern const ScanKernels kScanGeneric;
extern const ScanKernels kScanAvx2;
extern const ScanKernels kScanAvx512;

}  // namespace lumen::search
