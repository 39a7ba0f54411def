// The plain reference: one float at a time (One), the same operations as the SIMD variants.
#include <bit>
#include <cmath>
#include <cstdint>

#include "activation_table.hpp"

namespace lumen::nn::activation_kernels {
namespace {

#include "activations_simd.hpp"

}  // namespace

const ActivationTable kActivationsGeneric = {gelu<One>, silu_mul<One>, softmax<One>};

}  // namespace lumen::nn::activation_kernels
