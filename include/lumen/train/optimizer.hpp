#pragma once
// The language model's optimisers over a list of parameter tensors (weights w, gradients g, n floats each):
// plain SGD (w -= lr*g) and Adam (Kingma & Ba 2015, with bias correction; beta1 0.9, beta2 0.999, eps 1e-8).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lumen::train {

enum class OptimizerKind { sgd, adam };
OptimizerKind parse_optimizer(std::string_view name);  // "sgd" | "adam"; throws UsageError
std::string_view optimizer_name(OptimizerKind k);

struct ParamRef {
  float* w;
  const float* g;
  std::size_t n;
};

class Optimizer {
 public:
  Optimizer(OptimizerKind kind, std::vector<ParamRef> params);
  void step(float lr);  // one update of every parameter from its gradient
  OptimizerKind kind() const { return kind_; }
  std::uint64_t steps() const { return t_; }
  // Adam's moments, in parameter order (empty for SGD): for checkpoints.
  std::vector<std::vector<float>>& m() { return m_; }
  std::vector<std::vector<float>>& v() { return v_; }
  const std::vector<std::vector<float>>& m() const { return m_; }
  const std::vector<std::vector<float>>& v() const { return v_; }
  void set_steps(std::uint64_t t) { t_ = t; }

  static constexpr float kBeta1 = 0.9f, kBeta2 = 0.999f, kEps = 1e-8f;

 private:
  OptimizerKind kind_;
  std::vector<ParamRef> params_;
  std::vector<std::vector<float>> m_, v_;
  std::uint64_t t_ = 0;
};

}  // namespace lumen::train
