#include "lumen/nn/activations.hpp"

#include "activation_table.hpp"
#include "lumen/core/dispatch.hpp"

namespace lumen::nn {

namespace {
const activation_kernels::ActivationTable& active() {
  return dispatch(activation_kernels::kActivationsGeneric, activation_kernels::kActivationsAvx2,
                  activation_kernels::kActivationsAvx512);
}
const activation_kernels::ActivationTable& of(Isa isa) {
  return dispatch(isa, activation_kernels::kActivationsGeneric, activation_kernels::kActivationsAvx2,
                  activation_kernels::kActivationsAvx512);
}
}  // namespace

void gelu(float* out, const float* in, std::size_t n) { active().gelu(out, in, n); }
void silu_mul(float* out, const float* gate, const float* up, std::size_t n) { active().silu_mul(out, gate, up, n); }
void softmax(float* p, std::size_t n) {
  if (n != 0) active().softmax(p, n);
}

void gelu(Isa isa, float* out, const float* in, std::size_t n) { of(isa).gelu(out, in, n); }
void silu_mul(Isa isa, float* out, const float* gate, const float* up, std::size_t n) {
  of(isa).silu_mul(out, gate, up, n);
}
void softmax(Isa isa, float* p, std::size_t n) {
  if (n != 0) of(isa).softmax(p, n);
}

}  // namespace lumen::nn
