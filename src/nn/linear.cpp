#include "lumen/nn/linear.hpp"

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
  const ScopedBlasThreads guard(threads);
  // One row (the next token's step): a matrix-vector product reads the weight once, where sgemm first packs it.
  if (BT == 1)
    return blas::sgemv(guard, weight_in_out ? C : OC, weight_in_out ? OC : C, 1.0f, weight, weight_in_out ? OC : C, inp,
                       beta, out, weight_in_out ? blas::Op::T : blas::Op::N);
  if (weight_in_out) blas::sgemm(guard, blas::Op::N, blas::Op::N, BT, OC, C, 1.0f, inp, C, weight, OC, beta, out, OC);
  else blas::sgemm(guard, blas::Op::N, blas::Op::T, BT, OC, C, 1.0f, inp, C, weight, C, beta, out, OC);
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
