#include "lumen/nn/linear.hpp"

#include <algorithm>
#include <functional>
#include <vector>

#include "lumen/core/kernels.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::nn {

namespace {

// out's rows (stride ldo) start as the bias (beta 1 for the products that add to them), or are overwritten (beta 0).
float bias_rows(float* out, const float* bias, std::size_t BT, std::size_t OC, std::size_t ldo) {
  if (bias == nullptr) return 0.0f;
  for (std::size_t i = 0; i < BT; ++i)
    for (std::size_t o = 0; o < OC; ++o) out[i * ldo + o] = bias[o];
  return 1.0f;
}

// The products go as column blocks of out on lumen's threads, each a single-threaded sgemm (sgemv for one row):
// OpenBLAS's own workers would spin (sched_yield) through the attention and activations that run on lumen's threads
// between the products, taking their cores. Blocks are whole multiples of kCols columns (the last one short).
constexpr std::size_t kCols = 64;

// Columns per tile: up to 2 MB of f32 weight (whole blocks, at most 512 columns). A half weight is widened a tile at
// a time, and sgemm packs inp again for each tile, so a tile is as wide as the cache allows.
std::size_t tile_columns(std::size_t C) {
  return std::clamp<std::size_t>((std::size_t{1} << 19) / std::max<std::size_t>(C, 1) / kCols * kCols, kCols,
                                 8 * kCols);
}

// The weight's columns [o0, o0+n) (rows of a (OC,C) weight, columns of a (C,OC) one) as f32, and their stride.
struct Columns {
  const float* w;
  std::size_t ld;
};
using Fetch = std::function<Columns(std::size_t o0, std::size_t n, std::vector<float>& tile)>;

// out (BT,OC) (+)= inp . W^T on lumen's threads. One row (the next token's step) goes by sgemv, tile by tile: a
// matrix-vector product reads the weight once, where sgemm first packs it; the tiles are the same whatever the
// weight's width, so an f16 weight and its f32 widening give the same bits. More rows go by one sgemm per block for
// f32 (whole_blocks), by tiles for a half weight.
void products(float* out, std::size_t ldo, const float* inp, std::size_t BT, std::size_t C, std::size_t OC,
              std::size_t threads, bool in_out, float beta, bool whole_blocks, const Fetch& fetch) {
  const ScopedBlasThreads guard(1);
  parallel_for((OC + kCols - 1) / kCols, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    const std::size_t c0 = b * kCols, c1 = std::min(OC, e * kCols);
    const std::size_t step = BT > 1 && whole_blocks ? c1 - c0 : tile_columns(C);
    std::vector<float> tile;
    for (std::size_t o0 = c0; o0 < c1; o0 += step) {
      const std::size_t n = std::min(step, c1 - o0);
      const Columns W = fetch(o0, n, tile);
      float* y = out + o0;
      if (BT == 1 && in_out) blas::sgemv(guard, C, n, 1.0f, W.w, W.ld, inp, beta, y, blas::Op::T);
      else if (BT == 1) blas::sgemv(guard, n, C, 1.0f, W.w, W.ld, inp, beta, y, blas::Op::N);
      else if (in_out) blas::sgemm(guard, blas::Op::N, blas::Op::N, BT, n, C, 1.0f, inp, C, W.w, W.ld, beta, y, ldo);
      else blas::sgemm(guard, blas::Op::N, blas::Op::T, BT, n, C, 1.0f, inp, C, W.w, W.ld, beta, y, ldo);
    }
  });
}

}  // namespace

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads, bool weight_in_out, std::size_t ldo) {
  if (BT == 0 || OC == 0) return;
  if (ldo == 0) ldo = OC;
  const float beta = bias_rows(out, bias, BT, OC, ldo);
  products(out, ldo, inp, BT, C, OC, threads, weight_in_out, beta, true, [&](std::size_t o0, std::size_t, auto&) {
    return weight_in_out ? Columns{weight + o0, OC} : Columns{weight + o0 * C, C};  // in place
  });
}

void matmul_forward(float* out, const float* inp, const std::uint16_t* weight, bool bf16, const float* bias,
                    std::size_t BT, std::size_t C, std::size_t OC, std::size_t threads, bool weight_in_out,
                    std::size_t ldo) {
  if (BT == 0 || OC == 0) return;
  if (ldo == 0) ldo = OC;
  const float beta = bias_rows(out, bias, BT, OC, ldo);
  const DType dtype = bf16 ? DType::bf16 : DType::f16;
  const auto widen = [dtype](const std::uint16_t* s, float* d, std::size_t n) {
    lumen::kernels::half_to_f32(dtype, s, d, n);
  };
  products(out, ldo, inp, BT, C, OC, threads, weight_in_out, beta, false,
           [&](std::size_t o0, std::size_t n, std::vector<float>& tile) {
             tile.resize(n * C);
             if (!weight_in_out) {  // (OC,C): rows [o0, o0+n), the tile (n,C)
               widen(weight + o0 * C, tile.data(), n * C);
               return Columns{tile.data(), C};
             }
             for (std::size_t i = 0; i < C; ++i) widen(weight + i * OC + o0, tile.data() + i * n, n);  // (C,n)
             return Columns{tile.data(), n};
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
