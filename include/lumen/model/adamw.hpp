#pragma once
// AdamW (Loshchilov & Hutter 2019): Adam with bias correction and DECOUPLED weight decay, the decay applied to the
// weight itself (w -= lr * wd * w) rather than added to the gradient, and only to the tensors marked for it
// (a GPT's matrices; not its norms, biases or embeddings).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lumen::model {

struct AdamWOptions {
  float beta1 = 0.9f, beta2 = 0.95f, eps = 1e-8f;
  float weight_decay = 0.1f;
};

class AdamW {
 public:
  // sizes: each tensor's element count; decay: whether that tensor gets weight decay.
  AdamW(const AdamWOptions& options, const std::vector<std::size_t>& sizes, std::vector<bool> decay);

  // One step with learning rate lr: w[k] (sizes[k]) updated from g[k]. Increments steps().
  void step(const std::vector<float*>& w, const std::vector<const float*>& g, float lr);

  std::uint64_t steps() const { return t_; }
  void set_steps(std::uint64_t t) { t_ = t; }
  // The first and second moments, tensor by tensor (for checkpoints).
  std::vector<std::vector<float>>& m() { return m_; }
  std::vector<std::vector<float>>& v() { return v_; }
  const std::vector<std::vector<float>>& m() const { return m_; }
  const std::vector<std::vector<float>>& v() const { return v_; }
  const AdamWOptions& options() const { return o_; }

 private:
  AdamWOptions o_;
  std::vector<bool> decay_;
  std::vector<std::vector<float>> m_, v_;
  std::uint64_t t_ = 0;
};

// Linear warm-up over `warmup` steps to peak_lr, then cosine decay to min_lr at step `steps` (0-based step).
float cosine_lr(std::uint64_t step, std::uint64_t steps, std::uint64_t warmup, float peak_lr, float min_lr);

// Scales the gradients so that their global L2 norm is at most max_norm (max_norm <= 0: no clipping). Returns the
// norm before clipping.
double clip_grad_norm(const std::vector<float*>& g, const std::vector<std::size_t>& sizes, double max_norm);

}  // namespace lumen::model
