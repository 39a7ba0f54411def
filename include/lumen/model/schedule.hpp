#pragma once
// A GPT's training schedule around the optimiser (AdamW: train::Optimizer, lumen/train/optimizer.hpp): the
// learning rate of each step, and the gradient clipped to a global norm before the update.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lumen::model {

// Linear warm-up over `warmup` steps to peak_lr, then cosine decay to min_lr at step `steps` (0-based step).
float cosine_lr(std::uint64_t step, std::uint64_t steps, std::uint64_t warmup, float peak_lr, float min_lr);

// Scales the gradients so that their global L2 norm is at most max_norm (max_norm <= 0: no clipping). Returns the
// norm before clipping.
double clip_grad_norm(const std::vector<float*>& g, const std::vector<std::size_t>& sizes, double max_norm);

}  // namespace lumen::model
