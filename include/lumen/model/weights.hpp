#pragma once
// The parameters of a transformer, all f32, linear weights in nn.Linear's (out, in) layout; a GPT-2 Conv1D weight
// used in place in its checkpoint's map lies (in, out) instead (Param::in_out()).
#include <cstddef>
#include <vector>

#include "lumen/model/param.hpp"

namespace lumen::model {

struct BlockWeights {
  Param norm1_w, norm1_b;          // (C); b empty for RMSNorm or no biases
  Param qkv_w, qkv_b;              // ((NH+2*NKV)*hs, C): the query rows, then key, then value
  Param attn_proj_w, attn_proj_b;  // (C, NH*hs)
  Param norm2_w, norm2_b;          // (C)
  Param fc_w, fc_b;                // GELU: (F, C); SwiGLU: (2F, C), gate rows then up rows
  Param proj_w, proj_b;            // (C, F)
};

struct Weights {
  Param wte;  // E (V, C)
  Param wpe;  // (context, C); empty for RoPE
  std::vector<BlockWeights> blocks;
  Param normf_w, normf_b;  // (C)
  Param lm_head;           // (V, C); empty when tied (logits = h . E^T)
};

}  // namespace lumen::model
