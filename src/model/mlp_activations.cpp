// The MLP's nonlinearities: GELU (tanh form, GPT-2) and SwiGLU (Llama).
#include <cmath>
#include <numbers>

#include "lumen/model/ops.hpp"

namespace lumen::model {

void gelu_forward(float* out, const float* inp, std::size_t N) {
  const auto k = static_cast<float>(std::sqrt(2.0 / std::numbers::pi));
  for (std::size_t i = 0; i < N; ++i) {
    const float x = inp[i];
    out[i] = 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
  }
}

void swiglu_forward(float* out, const float* inp, std::size_t BT, std::size_t F) {
  for (std::size_t i = 0; i < BT; ++i) {
    const float* gate = inp + i * 2 * F;  // (F)
    const float* up = gate + F;           // (F)
    float* o = out + i * F;
    for (std::size_t j = 0; j < F; ++j) o[j] = gate[j] / (1.0f + std::exp(-gate[j])) * up[j];
  }
}

}  // namespace lumen::model

namespace lumen::model {

// d/dx of 0.5 x (1 + tanh(u)), u = k (x + 0.044715 x^3): 0.5 (1 + tanh u) + 0.5 x sech^2(u) k (1 + 3 0.044715 x^2).
void gelu_backward(float* dinp, const float* inp, const float* dout, std::size_t N) {
  const auto k = static_cast<float>(std::sqrt(2.0 / std::numbers::pi));
  for (std::size_t i = 0; i < N; ++i) {
    const float x = inp[i];
    const float th = std::tanh(k * (x + 0.044715f * x * x * x));
    const float sech2 = 1.0f - th * th;
    const float grad = 0.5f * (1.0f + th) + 0.5f * x * sech2 * k * (1.0f + 3.0f * 0.044715f * x * x);
    dinp[i] += grad * dout[i];
  }
}

}  // namespace lumen::model
