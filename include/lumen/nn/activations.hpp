#pragma once
// The forward pass's exp-based element-wise functions (GELU, SwiGLU's silu, the softmax), dispatched at run time
// (generic, AVX2, AVX-512). e^x is lumen's own polynomial, within 3 ulp; every ISA gives the same bits.
#include <cstddef>

#include "lumen/core/simd.hpp"

namespace lumen::nn {

// out (n) = GELU, GPT-2's tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed as x / (1 + e^-2u).
void gelu(float* out, const float* in, std::size_t n);
// out (n) = silu(gate) * up, silu(g) = g / (1 + e^-g). out may be gate or up.
void silu_mul(float* out, const float* gate, const float* up, std::size_t n);
// p (n) <- e^(p - max p) / sum over the row, in place. Nothing for n == 0.
void softmax(float* p, std::size_t n);

// The same with the variant for `isa` (tests); throw UsageError if this CPU lacks it.
void gelu(Isa isa, float* out, const float* in, std::size_t n);
void silu_mul(Isa isa, float* out, const float* gate, const float* up, std::size_t n);
void softmax(Isa isa, float* p, std::size_t n);

}  // namespace lumen::nn
