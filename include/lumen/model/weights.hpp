#pragma once
// The parameters of a transformer, all f32 and all linear weights in nn.Linear's (out, in) layout
// (GPT-2's Conv1D (in, out) weights are transposed at load).
#include <cstddef>
#include <vector>

namespace lumen::model {

struct BlockWeights {
  std::vector<float> norm1_w, norm1_b;          // (C); b empty for RMSNorm or no biases
  std::vector<float> qkv_w, qkv_b;              // ((NH+2*NKV)*hs, C): the query rows, then key, then value
  std::vector<float> attn_proj_w, attn_proj_b;  // (C, NH*hs)
  std::vector<float> norm2_w, norm2_b;          // (C)
  std::vector<float> fc_w, fc_b;                // GELU: (F, C); SwiGLU: (2F, C), gate rows then up rows
  std::vector<float> proj_w, proj_b;            // (C, F)
};

struct Weights {
  std::vector<float> wte;  // E (V, C)
  std::vector<float> wpe;  // (context, C); empty for RoPE
  std::vector<BlockWeights> blocks;
  std::vector<float> normf_w, normf_b;  // (C)
  std::vector<float> lm_head;           // (V, C); empty when tied (logits = h . E^T)
};

}  // namespace lumen::model
