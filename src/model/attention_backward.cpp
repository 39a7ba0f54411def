// The backward pass of causal attention with grouped-query heads. With S = Q K^T * scale, P = softmax(S) (causal),
// O = P V, per (b, query head):
//   dP = dO V^T, dV += P^T dO, dS = P * (dP - rowsum(P * dP)), dQ += scale dS K, dK += scale dS^T Q.
// One task per (b, key/value head): its NH/NKV query heads run in turn inside it, so the dK and dV they share are
// summed without two threads writing the same rows.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/model/ops.hpp"

namespace lumen::model {

void attention_backward(float* dqkv, const float* dout, const float* qkv, const float* att, std::size_t B,
                        std::size_t T, std::size_t NH, std::size_t NKV, std::size_t hs, std::size_t threads) {
  const std::size_t ld = (NH + 2 * NKV) * hs, C = NH * hs, group = NH / NKV;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const std::size_t workers = threads == 0 ? default_threads() : threads;
  const ScopedBlasThreads guard(1);  // many small sgemms, one per thread (as the forward)
  parallel_for(B * NKV, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<float> dP(T * T);  // (T,T), then dS in place
    for (std::size_t task = begin; task < end; ++task) {
      const std::size_t b = task / NKV, kvh = task % NKV;
      const float* k = qkv + b * T * ld + (NH + kvh) * hs;        // (T,hs), row stride ld
      const float* v = qkv + b * T * ld + (NH + NKV + kvh) * hs;  // (T,hs)
      float* dk = dqkv + b * T * ld + (NH + kvh) * hs;
      float* dv = dqkv + b * T * ld + (NH + NKV + kvh) * hs;
      for (std::size_t h = kvh * group; h < (kvh + 1) * group; ++h) {
        const float* q = qkv + b * T * ld + h * hs;
        float* dq = dqkv + b * T * ld + h * hs;
        const float* P = att + (b * NH + h) * T * T;  // (T,T), zero above the diagonal
        const float* dO = dout + b * T * C + h * hs;  // (T,hs), row stride C
        // dP (T,T) = dO . V^T
        blas::sgemm(guard, blas::Op::N, blas::Op::T, T, T, hs, 1.0f, dO, C, v, ld, 0.0f, dP.data(), T);
        // dV (T,hs) += P^T . dO
        blas::sgemm(guard, blas::Op::T, blas::Op::N, T, hs, T, 1.0f, P, T, dO, C, 1.0f, dv, ld);
        // dS = P * (dP - <P, dP>) per row; the future stays zero.
        for (std::size_t t = 0; t < T; ++t) {
          const float* p = P + t * T;
          float* d = dP.data() + t * T;
          float dot = 0;
          for (std::size_t u = 0; u <= t; ++u) dot += p[u] * d[u];
          for (std::size_t u = 0; u <= t; ++u) d[u] = p[u] * (d[u] - dot);
          std::fill(d + t + 1, d + T, 0.0f);
        }
        // dQ (T,hs) += scale dS . K;  dK (T,hs) += scale dS^T . Q
        blas::sgemm(guard, blas::Op::N, blas::Op::N, T, hs, T, scale, dP.data(), T, k, ld, 1.0f, dq, ld);
        blas::sgemm(guard, blas::Op::T, blas::Op::N, T, hs, T, scale, dP.data(), T, q, ld, 1.0f, dk, ld);
      }
    }
  });
}

}  // namespace lumen::model
