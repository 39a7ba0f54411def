// AVX-512: 16 floats at a time (activations_simd.hpp over core/lanes_avx512.hpp).
#include <bit>
#include <cmath>
#include <cstdint>
#include <immintrin.h>

#include "activation_table.hpp"

namespace lumen::nn::activation_kernels {
namespace {

#include "core/lanes_avx512.hpp"

#include "activations_simd.hpp"  // over the Lanes above

}  // namespace

const ActivationTable kActivationsAvx512 = {gelu<Lanes>, silu_mul<Lanes>, softmax<Lanes>};

}  // namespace lumen::nn::activation_kernels
