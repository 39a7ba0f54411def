#include "lumen/nn/linear.hpp"

#include <algorithm>
#include <functional>
#include <vector>

#include "lumen/core/kernels.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::nn {

namespace {

// out's rows start as the bias (beta 1 for the products that add to them), or are overwritten (beta 0).
float bias_rows(float* out, const float* bias, std::size_t BT, std::size_t OC) {
  if (bias == nullptr) return 0.0f;
  for (std::size_t i = 0; i < BT; ++i)
    for (std::size_t o = 0; o < OC; ++o) out[i * OC + o] = bias[o];
  return 1.0f;
}

// The products go as column blocks of out on lumen's threads, each a single-threaded sgemm: OpenBLAS's own workers
// would spin (sched_yield) through the attention and activations that run on lumen's threads between the products,
// taking their cores. fn(o0, o1) computes columns [o0, o1), whole blocks of kCols (the last one short).
constexpr std::size_t kCols = 64;

void column_blocks(std::size_t OC, std::size_t threads, const std::function<void(std::size_t, std::size_t)>& fn) {
  parallel_for((OC + kCols - 1) / kCols, threads,
               [&](std::size_t b, std::size_t e, std::size_t) { fn(b * kCols, std::min(OC, e * kCols)); });
}

}  // namespace

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads, bool weight_in_out) {
  if (BT == 0 || OC == 0) return;
  const float beta = bias_rows(out, bias, BT, OC);
  // One row (the next token's step): a matrix-vector product reads the weight once, where sgemm first packs it.
  if (BT == 1) {
    const ScopedBlasThreads guard(threads);
    return blas::sgemv(guard, weight_in_out ? C : OC, weight_in_out ? OC : C, 1.0f, weight, weight_in_out ? OC : C, inp,
                       beta, out, weight_in_out ? blas::Op::T : blas::Op::N);
  }
  const ScopedBlasThreads guard(1);
  column_blocks(OC, threads, [&](std::size_t o0, std::size_t o1) {
    const std::size_t n = o1 - o0;
    if (weight_in_out)
      blas::sgemm(guard, blas::Op::N, blas::Op::N, BT, n, C, 1.0f, inp, C, weight + o0, OC, beta, out + o0, OC);
    else blas::sgemm(guard, blas::Op::N, blas::Op::T, BT, n, C, 1.0f, inp, C, weight + o0 * C, C, beta, out + o0, OC);
  });
}

void matmul_forward(float* out, const float* inp, const std::uint16_t* weight, bool bf16, const float* bias,
                    std::size_t BT, std::size_t C, std::size_t OC, std::size_t threads, bool weight_in_out) {
  if (BT == 0 || OC == 0) return;
  const float beta = bias_rows(out, bias, BT, OC);
  const auto widen = [bf16](const std::uint16_t* s, float* d, std::size_t n) {
    if (bf16) lumen::kernels::bf16_to_f32(s, d, n);
    else lumen::kernels::f16_to_f32(s, d, n);
  };
  // Tiles of up to 2 MB of f32 (whole column blocks, at most 512 columns): sgemm packs inp again for each tile, so a
  // tile is as wide as the cache allows.
  const std::size_t tile_cols =
      std::clamp<std::size_t>((std::size_t{1} << 19) / std::max<std::size_t>(C, 1) / kCols * kCols, kCols, 8 * kCols);
  const ScopedBlasThreads guard(1);
  column_blocks(OC, threads, [&](std::size_t c0, std::size_t c1) {
    std::vector<float> tile(std::min(tile_cols, c1 - c0) * C);
    for (std::size_t o0 = c0; o0 < c1; o0 += tile_cols) {
      const std::size_t n = std::min(tile_cols, c1 - o0);
      if (weight_in_out) {  // (C,OC): columns [o0, o0+n) of each row, as the tile (C,n)
        for (std::size_t i = 0; i < C; ++i) widen(weight + i * OC + o0, tile.data() + i * n, n);
        if (BT == 1) blas::sgemv(guard, C, n, 1.0f, tile.data(), n, inp, beta, out + o0, blas::Op::T);
        else blas::sgemm(guard, blas::Op::N, blas::Op::N, BT, n, C, 1.0f, inp, C, tile.data(), n, beta, out + o0, OC);
      } else {  // (OC,C): rows [o0, o0+n), the tile (n,C)
        widen(weight + o0 * C, tile.data(), n * C);
        if (BT == 1) blas::sgemv(guard, n, C, 1.0f, tile.data(), C, inp, beta, out + o0, blas::Op::N);
        else blas::sgemm(guard, blas::Op::N, blas::Op::T, BT, n, C, 1.0f, inp, C, tile.data(), C, beta, out + o0, OC);
      }
    }
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
