#pragma once
// One pre-norm transformer block, the loop body that inference (Transformer::forward) and training (GptBackprop)
// share:  res2 = in + attn_proj(attention(rope(qkv(norm1(in)))));  out = res2 + proj(act(fc(norm2(res2)))).
// The forward keeps what the backward needs in BlockActivations; the backward (GPT-2's shape only: LayerNorm,
// learned positions, GELU, biases) walks the same steps in reverse.
#include <cstddef>
#include <vector>

#include "lumen/model/weights.hpp"
#include "lumen/nn/params.hpp"

namespace lumen::model {

// A block's activations for B*T positions, (B*T, .) each: the first norm (and its mean, rstd), qkv, att
// (B,NH,T,T) or empty, the attention output before its projection, the stream after the attention's add, the second
// norm, the MLP's hidden layer before and after its activation, and a (B*T,C) scratch for the branch outputs.
struct BlockActivations {
  std::vector<float> ln1, ln1_mean, ln1_rstd, qkv, att, atty, res2, ln2, ln2_mean, ln2_rstd, fch, fch_act, tmp;
  // Sized for shape s and B x T; keep_att: the attention probabilities are kept (training), else a scratch is used.
  BlockActivations(const nn::ModelShape& s, std::size_t B, std::size_t T, bool keep_att);
};

// The block's gradient scratch (B*T, .): a norm's output, qkv, the attention output, the MLP hidden layer (x2).
struct BlockGradScratch {
  std::vector<float> dln, dqkv, datty, dfch, dfch_act;
  BlockGradScratch(const nn::ModelShape& s, std::size_t B, std::size_t T);
};

// The model's norm on BT rows of C: LayerNorm (w, b; b empty: none) or RMSNorm (w), by s.norm. mean, rstd (BT)
// kept for backward, or nullptr (RMSNorm keeps no mean).
void norm_forward(float* out, float* mean, float* rstd, const float* inp, const Param& w, const Param& b,
                  const nn::ModelShape& s, std::size_t BT);

// out (BT,OC) = inp (BT,C) . W^T + bias (nullptr: none), whichever layout and width W lies in: f32 (OC,C) or
// (C,OC) (in_out), or f16/bf16 kept at half size, which nn::matmul_forward widens a tile at a time; a stack part by
// part, each into its columns.
void linear_forward(float* out, const float* inp, const Param& W, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads);

// out (B,T,C) = the block on in (B,T,C); out may be in (the stream updated in place). rope_cos, rope_sin (T, hs/2)
// for RoPE models (rope_tables), nullptr for learned positions.
void block_forward(float* out, const float* in, const BlockWeights& w, const nn::ModelShape& s, BlockActivations& a,
                   const float* rope_cos, const float* rope_sin, std::size_t B, std::size_t T, std::size_t threads);

// GPT-2's shape: dres (B,T,C) holds d out on entry and d in on return (each branch adds its J^T d out in place);
// g += the block's weight gradients. in, a: the forward's input and activations.
void block_backward(float* dres, BlockWeights& g, const float* in, const BlockWeights& w, const nn::ModelShape& s,
                    const BlockActivations& a, BlockGradScratch& d, std::size_t B, std::size_t T, std::size_t threads);

}  // namespace lumen::model
