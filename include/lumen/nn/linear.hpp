#pragma once
// A linear layer as llm.c writes it, on float arrays through OpenBLAS's sgemm (inside a ScopedBlasThreads; threads
// = 0 is the default count). The GPT's blocks and head, the MLP language model and the output head all use it.
#include <cstddef>
#include <cstdint>

namespace lumen::nn {

// out (B*T,OC) = inp (B*T,C) . weight (OC,C)^T + bias (OC); bias == nullptr: none (out is overwritten).
// weight_in_out: the weight lies (C,OC) instead (GPT-2's Conv1D, used in place), and out = inp . weight.
// ldo: out's row stride (0: OC), for a product that fills some columns of a wider output.
void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t BT, std::size_t C,
                    std::size_t OC, std::size_t threads = 0, bool weight_in_out = false, std::size_t ldo = 0);
// The same with the weight in f16 (bf16: bf16) bits, kept at half size: widened to f32 a tile of columns at a time
// on each thread, never whole.
void matmul_forward(float* out, const float* inp, const std::uint16_t* weight, bool bf16, const float* bias,
                    std::size_t BT, std::size_t C, std::size_t OC, std::size_t threads = 0, bool weight_in_out = false,
                    std::size_t ldo = 0);
// dinp (B*T,C) += dout (B*T,OC) . weight (OC,C); dweight (OC,C) += dout^T . inp; dbias (OC) += dout summed over
// rows. dinp or dbias == nullptr: not wanted. ACCUMULATES, as llm.c's backward passes do: the caller zeroes the
// gradients once per step.
void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, std::size_t BT, std::size_t C, std::size_t OC, std::size_t threads = 0);

}  // namespace lumen::nn
