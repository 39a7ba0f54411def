#pragma once
// The forward pass's exp-based element-wise functions, one variant per ISA (activations_<isa>.cpp), chosen at run
// time. Kernel files compiled with ISA flags include only this plain header and intrinsics (see kernel_table.hpp).
#include <cstddef>

namespace lumen::nn::activation_kernels {

struct ActivationTable {
  // out (n) = GELU-tanh(in): x / (1 + e^(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3), which is 0.5 x (1 + tanh u).
  void (*gelu)(float* out, const float* in, std::size_t n);
  // out (n) = silu(gate) * up, silu(g) = g / (1 + e^-g).
  void (*silu_mul)(float* out, const float* gate, const float* up, std::size_t n);
  // p (n) <- e^(p - max p) / sum, in place (n > 0).
  void (*softmax)(float* p, std::size_t n);
};

extern const ActivationTable kActivationsGeneric;
extern const ActivationTable kActivationsAvx2;
extern const ActivationTable kActivationsAvx512;

}  // namespace lumen::nn::activation_kernels
