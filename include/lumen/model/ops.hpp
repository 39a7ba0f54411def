#pragma once
// The forward operations of a decoder-only transformer, in the style of llm.c's train_gpt2.c: plain functions on
// float arrays with their (B,T,C) shapes in the comments. B batch, T time (tokens), C channels (d_model),
// NH query heads, NKV key/value heads (NKV < NH: grouped-query attention), hs = C / NH the head size,
// F the MLP's hidden width, V the vocabulary.
//
// Each operation writes what its backward pass will need beside its output (a norm's mean and rstd, the
// attention probabilities when asked). The backward passes (GPT-2's shape: LayerNorm, learned positions, GELU,
// attention with grouped-query heads) sit beside their forwards; each ACCUMULATES (+=) into the gradients it is
// given, as llm.c's do, so the caller zeroes them once per step. d<name> is the gradient of the loss w.r.t. <name>.
// The GEMMs go through OpenBLAS (linalg/blas.hpp's sgemm) inside a ScopedBlasThreads; `threads` = 0 is the default
// count. The linear layer (nn/linear.hpp) and the loss (nn/loss.hpp) are the nn module's, shared with the MLP
// language model.
#include <cstddef>
#include <cstdint>

namespace lumen::model {

// out (B,T,C) = wte[inp[b,t]] + wpe[t]; wpe == nullptr (RoPE or no positions): the token row alone.
// inp (B,T) ids, each in [0, V) (the caller checks), wte (V,C), wpe (maxT,C) with T <= maxT.
void encoder_forward(float* out, const std::int32_t* inp, const float* wte, const float* wpe, std::size_t B,
                     std::size_t T, std::size_t C);
// dwte (V,C) += scatter-add of dout (B,T,C) by id; dwpe (maxT,C) rows [0,T) += dout summed over B (nullptr: none).
void encoder_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* inp, std::size_t B,
                      std::size_t T, std::size_t C);

// LayerNorm over C: out (B*T,C) = (inp - mean) * rstd * weight + bias; mean, rstd (B*T) kept for backward
// (nullptr: not kept). bias == nullptr: none.
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                       std::size_t BT, std::size_t C, float eps);
// dinp (B*T,C), dweight (C), dbias (C) += from dout (B*T,C), the forward's inp and its kept mean, rstd (B*T).
void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, std::size_t BT, std::size_t C);

// RMSNorm over C (Llama): out (B*T,C) = inp * rstd * weight, rstd = 1 / sqrt(mean(inp^2) + eps), kept (or nullptr).
void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* weight, std::size_t BT, std::size_t C,
                     float eps);

// RoPE's frequencies: inv_freq (hs/2) = theta^(-2i/hs), in f32 as transformers computes them.
void rope_inv_freq(float* inv_freq, std::size_t hs, double theta);
// cos, sin (T, hs/2) of the angles t * inv_freq[i] for positions [0, T).
void rope_tables(float* cos, float* sin, const float* inv_freq, std::size_t T, std::size_t hs);
// Rotates the q and k heads of qkv (B,T,(NH+2*NKV)*hs) in place, Hugging Face's rotate-half convention: for each
// head x, x[i] <- x[i] cos - x[i+hs/2] sin and x[i+hs/2] <- x[i+hs/2] cos + x[i] sin (i < hs/2).
void rope_forward(float* qkv, const float* cos, const float* sin, std::size_t B, std::size_t T, std::size_t NH,
                  std::size_t NKV, std::size_t hs);

// Causal self-attention. qkv (B,T,(NH+2*NKV)*hs): per token the NH query heads, then NKV key heads, then NKV value
// heads; query head h reads key/value head h / (NH/NKV). out (B,T,NH*hs). att (B,NH,T,T): the softmaxed scores,
// zero above the diagonal, kept for backward (nullptr: a scratch of (T,T) is used and nothing kept).
void attention_forward(float* out, float* att, const float* qkv, std::size_t B, std::size_t T, std::size_t NH,
                       std::size_t NKV, std::size_t hs, std::size_t threads = 0);
// The same by plain loops (no BLAS, one thread): the reference the tests compare attention_forward against.
void attention_forward_reference(float* out, const float* qkv, std::size_t B, std::size_t T, std::size_t NH,
                                 std::size_t NKV, std::size_t hs);
// dqkv (B,T,(NH+2*NKV)*hs) += from dout (B,T,NH*hs), the forward's qkv and its kept att (B,NH,T,T). A key/value
// head's gradient is the sum over the NH/NKV query heads that read it. By sgemm per (b, kv head) on threads.
void attention_backward(float* dqkv, const float* dout, const float* qkv, const float* att, std::size_t B,
                        std::size_t T, std::size_t NH, std::size_t NKV, std::size_t hs, std::size_t threads = 0);
// The same by plain loops in double (one thread): the reference attention_backward is tested against.
void attention_backward_reference(float* dqkv, const float* dout, const float* qkv, const float* att, std::size_t B,
                                  std::size_t T, std::size_t NH, std::size_t NKV, std::size_t hs);

// GELU, GPT-2's tanh form: out (N) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), by nn::gelu on threads
// (the same bits at any count).
void gelu_forward(float* out, const float* inp, std::size_t N, std::size_t threads = 0);
// dinp (N) += gelu'(inp) * dout.
void gelu_backward(float* dinp, const float* inp, const float* dout, std::size_t N);

// SwiGLU (Llama): inp (B*T, 2F) holds gate then up; out (B*T,F) = silu(gate) * up, silu(x) = x / (1 + e^-x).
// By nn::silu_mul on threads (the same bits at any count).
void swiglu_forward(float* out, const float* inp, std::size_t BT, std::size_t F, std::size_t threads = 0);

// out (N) = a + b (the residual stream).
void residual_forward(float* out, const float* a, const float* b, std::size_t N);
// da (N) += dout; db (N) += dout (the sum passes its gradient to both branches).
void residual_backward(float* da, float* db, const float* dout, std::size_t N);

}  // namespace lumen::model
