// The MLP's nonlinearities: GELU (tanh form, GPT-2) and SwiGLU (Llama). The forward's are nn/activations.hpp's
// dispatched kernels, on threads; the backward's are plain loops over libm.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "lumen/core/threads.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/nn/activations.hpp"

namespace lumen::model {

namespace {

// Element-wise work on threads only when there is enough of it: a thread costs about as much as 16k activations.
constexpr std::size_t kPerThread = std::size_t{1} << 14;

void on_threads(std::size_t n, std::size_t threads, const std::function<void(std::size_t, std::size_t)>& fn) {
  const std::size_t most = std::max<std::size_t>(1, n / kPerThread);
  parallel_for(n, std::min(threads == 0 ? default_threads() : threads, most),
               [&](std::size_t begin, std::size_t end, std::size_t) { fn(begin, end); });
}

}  // namespace

void gelu_forward(float* out, const float* inp, std::size_t N, std::size_t threads) {
  on_threads(N, threads, [&](std::size_t b, std::size_t e) { nn::gelu(out + b, inp + b, e - b); });
}

void swiglu_forward(float* out, const float* inp, std::size_t BT, std::size_t F, std::size_t threads) {
  on_threads(BT * F, threads, [&](std::size_t b, std::size_t e) {
    // [b, e) of out (BT,F); row i's gate and up are inp's row i (2F), halves.
    for (std::size_t i = b / F; i * F < e; ++i) {
      const std::size_t j0 = std::max(b, i * F) - i * F, j1 = std::min(e, (i + 1) * F) - i * F;
      const float* gate = inp + i * 2 * F;
      nn::silu_mul(out + i * F + j0, gate + j0, gate + F + j0, j1 - j0);
    }
  });
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
