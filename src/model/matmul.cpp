// Linear layers through OpenBLAS: out (B*T,OC) = inp (B*T,C) . W(OC,C)^T + bias.
#include <cblas.h>

#include "blas_int.hpp"
#include "lumen/core/blas_threads.hpp"
#include "lumen/model/ops.hpp"

namespace lumen::model {

using detail::blas_int;

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads) {
  if (BT == 0 || OC == 0) return;
  float beta = 0.0f;
  if (bias != nullptr) {
    for (std::size_t i = 0; i < BT; ++i)
      for (std::size_t o = 0; o < OC; ++o) out[i * OC + o] = bias[o];
    beta = 1.0f;
  }
  const ScopedBlasThreads guard(threads);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, blas_int(BT), blas_int(OC), blas_int(C), 1.0f, inp, blas_int(C),
              weight, blas_int(C), beta, out, blas_int(OC));
}

}  // namespace lumen::model

namespace lumen::model {

void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, std::size_t BT, std::size_t C, std::size_t OC, std::size_t threads) {
  if (BT == 0 || OC == 0 || C == 0) return;
  if (dbias != nullptr)
    for (std::size_t i = 0; i < BT; ++i)
      for (std::size_t o = 0; o < OC; ++o) dbias[o] += dout[i * OC + o];
  const ScopedBlasThreads guard(threads);
  if (dinp != nullptr)  // dinp (BT,C) += dout (BT,OC) . W (OC,C)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blas_int(BT), blas_int(C), blas_int(OC), 1.0f, dout,
                blas_int(OC), weight, blas_int(C), 1.0f, dinp, blas_int(C));
  // dW (OC,C) += dout^T (OC,BT) . inp (BT,C)
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, blas_int(OC), blas_int(C), blas_int(BT), 1.0f, dout,
              blas_int(OC), inp, blas_int(C), 1.0f, dweight, blas_int(C));
}

}  // namespace lumen::model
