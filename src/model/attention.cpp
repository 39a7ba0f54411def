// Causal multi-head attention with grouped-query heads. Per (b, head), on threads: scores = Q K^T / sqrt(hs) by
// sgemm in row blocks that stop at the diagonal (the causal half above it is never computed), a softmax per row
// over the positions up to it, then out = P V by sgemm, block by block.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/nn/activations.hpp"

namespace lumen::model {

namespace {
constexpr std::size_t kRowBlock = 128;
}  // namespace

void attention_forward(float* out, float* att, const float* qkv, std::size_t B, std::size_t T, std::size_t NH,
                       std::size_t NKV, std::size_t hs, std::size_t threads) {
  const std::size_t ld = (NH + 2 * NKV) * hs, C = NH * hs, group = NH / NKV;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const std::size_t workers = threads == 0 ? default_threads() : threads;
  // One (b, head) per task, each on its own thread with single-threaded sgemm: OpenBLAS's own threads would spin
  // between the many small calls and the row softmax.
  const ScopedBlasThreads guard(1);
  parallel_for(B * NH, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<float> scratch(att == nullptr ? T * T : 0);
    for (std::size_t bh = begin; bh < end; ++bh) {
      const std::size_t b = bh / NH, h = bh % NH, kvh = h / group;
      const float* q = qkv + b * T * ld + h * hs;                     // (T, hs), row stride ld
      const float* k = qkv + b * T * ld + (NH + kvh) * hs;            // (T, hs)
      const float* v = qkv + b * T * ld + (NH + NKV + kvh) * hs;      // (T, hs)
      float* P = att != nullptr ? att + bh * T * T : scratch.data();  // (T, T)
      float* o = out + b * T * C + h * hs;                            // (T, hs), row stride C
      for (std::size_t r0 = 0; r0 < T; r0 += kRowBlock) {
        const std::size_t r1 = std::min(T, r0 + kRowBlock);  // rows [r0, r1) see columns [0, r1)
        blas::sgemm(guard, blas::Op::N, blas::Op::T, r1 - r0, r1, hs, scale, q + r0 * ld, ld, k, ld, 0.0f, P + r0 * T,
                    T);
        for (std::size_t t = r0; t < r1; ++t) {
          float* p = P + t * T;
          nn::softmax(p, t + 1);
          std::fill(p + t + 1, p + T, 0.0f);  // the future: masked
        }
        blas::sgemm(guard, blas::Op::N, blas::Op::N, r1 - r0, hs, r1, 1.0f, P + r0 * T, T, v, ld, 0.0f, o + r0 * C, C);
      }
    }
  });
}

}  // namespace lumen::model
