#include "lumen/nn/linear.hpp"

#include <algorithm>

#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::nn {

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads, bool weight_in_out) {
  if (BT == 0 || OC == 0) return;
  float beta = 0.0f;
  if (bias != nullptr) {
    for (std::size_t i = 0; i < BT; ++i)
      for (std::size_t o = 0; o < OC; ++o) out[i * OC + o] = bias[o];
    beta = 1.0f;
  }
  // One row (the next token's step): a matrix-vector product reads the weight once, where sgemm first packs it.
  if (BT == 1) {
    const ScopedBlasThreads guard(threads);
    return blas::sgemv(guard, weight_in_out ? C : OC, weight_in_out ? OC : C, 1.0f, weight, weight_in_out ? OC : C, inp,
                       beta, out, weight_in_out ? blas::Op::T : blas::Op::N);
  }
  // Column blocks of out on lumen's threads, each a single-threaded sgemm: OpenBLAS's own workers would spin
  // (sched_yield) through the attention and activations that run on lumen's threads between the products, taking
  // their cores. Blocks of 64 columns keep each product's panels whole.
  const ScopedBlasThreads guard(1);
  constexpr std::size_t kCols = 64;
  parallel_for((OC + kCols - 1) / kCols, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    const std::size_t o0 = b * kCols, n = std::min(OC, e * kCols) - o0;
    if (weight_in_out)
      blas::sgemm(guard, blas::Op::N, blas::Op::N, BT, n, C, 1.0f, inp, C, weight + o0, OC, beta, out + o0, OC);
    else blas::sgemm(guard, blas::Op::N, blas::Op::T, BT, n, C, 1.0f, inp, C, weight + o0 * C, C, beta, out + o0, OC);
  });
}

void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, std::size_t BT, std::size_t C, std::size_t OC, std::size_t threads) {
  if (BT == 0 || OC == 0 || C == 0) return;
  if (dbias != nullptr)
    for (std::size_t i = 0; i < BT; ++i)
      for (std::size_t o = 0; o < OC; ++o) dbias[o] += dout[i * OC + o];
  const ScopedBlasThreads guard(threads);
  if (dinp != nullptr)  // dinp (BT,C) += dout (BT,OC) . W (OC,C)
    blas::sgemm(guard, blas::Op::N, blas::Op::N, BT, C, OC, 1.0f, dout, OC, weight, C, 1.0f, dinp, C);
  // dW (OC,C) += dout^T (OC,BT) . inp (BT,C)
  blas::sgemm(guard, blas::Op::T, blas::Op::N, OC, C, BT, 1.0f, dout, OC, inp, C, 1.0f, dweight, C);
}

}  // namespace lumen::nn
