#pragma once
// lumen's one optimiser, over a list of parameter tensors (weights w, gradients g, n floats each), for the MLP
// language model and the GPT alike:
//   sgd    w -= lr * g
//   adam   Adam (Kingma & Ba 2015) with bias correction, plus AdamW's decoupled weight decay (Loshchilov & Hutter
//          2019) on the tensors marked `decay`: the decay shrinks the weight itself, never enters the moments.
//          Computed as PyTorch's torch.optim.AdamW (Adam when weight_decay is 0), step t = 1, 2, ...:
//            w *= 1 - lr * wd                     (marked tensors only)
//            m = b1 m + (1 - b1) g,   v = b2 v + (1 - b2) g^2
//            w -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
// The language model uses Adam's defaults (b2 0.999, no decay); the GPT b2 0.95 and decay 0.1 on its matrices.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lumen::train {

enum class OptimizerKind { sgd, adam };
OptimizerKind parse_optimizer(std::string_view name);  // "sgd" | "adam"; throws UsageError
std::string_view optimizer_name(OptimizerKind k);

struct AdamOptions {
  float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  float weight_decay = 0;  // decoupled, on the tensors marked `decay`
};

struct ParamRef {
  float* w;
  const float* g;  // read at every step(): it must stay valid (and hold the step's gradient)
  std::size_t n;
  bool decay = false;  // weight decay applies (a GPT's matrices; not norms, biases or embeddings)
};

class Optimizer {
 public:
  Optimizer(OptimizerKind kind, std::vector<ParamRef> params, const AdamOptions& adam = {});
  void step(float lr);  // one update of every parameter from its gradient; increments steps()
  OptimizerKind kind() const { return kind_; }
  const AdamOptions& adam() const { return adam_; }
  std::uint64_t steps() const { return t_; }
  // Adam's moments, in parameter order (empty for SGD): for checkpoints.
  std::vector<std::vector<float>>& m() { return m_; }
  std::vector<std::vector<float>>& v() { return v_; }
  const std::vector<std::vector<float>>& m() const { return m_; }
  const std::vector<std::vector<float>>& v() const { return v_; }
  void set_steps(std::uint64_t t) { t_ = t; }

 private:
  OptimizerKind kind_;
  AdamOptions adam_;
  std::vector<ParamRef> params_;
  std::vector<std::vector<float>> m_, v_;
  std::uint64_t t_ = 0;
};

}  // namespace lumen::train
