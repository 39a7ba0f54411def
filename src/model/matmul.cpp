// Linear layers through OpenBLAS: out (B*T,OC) = inp (B*T,C) . W(OC,C)^T + bias.
#include <cblas.h>

#include "lumen/core/blas_threads.hpp"
#include "lumen/model/ops.hpp"

namespace lumen::model {

namespace {
int blas_int(std::size_t n) { return static_cast<int>(n); }  // dimensions are checked against the config
}  // namespace

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
