#include "lumen/train/optimizer.hpp"

#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen::train {

OptimizerKind parse_optimizer(std::string_view name) {
  if (name == "sgd") return OptimizerKind::sgd;
  if (name == "adam") return OptimizerKind::adam;
  throw UsageError(fmt::format("unknown optimizer '{}' (expected sgd or adam)", name));
}

std::string_view optimizer_name(OptimizerKind k) { return k == OptimizerKind::sgd ? "sgd" : "adam"; }

Optimizer::Optimizer(OptimizerKind kind, std::vector<ParamRef> params, const AdamOptions& adam)
    : kind_(kind), adam_(adam), params_(std::move(params)) {
  if (kind_ == OptimizerKind::adam)
    for (auto& p : params_) {
      m_.emplace_back(p.n, 0.0f);
      v_.emplace_back(p.n, 0.0f);
    }
}

void Optimizer::step(float lr) {
  ++t_;
  if (kind_ == OptimizerKind::sgd) {
    for (auto& p : params_)
      for (std::size_t i = 0; i < p.n; ++i) p.w[i] -= lr * p.g[i];
    return;
  }
  const float b1 = adam_.beta1, b2 = adam_.beta2, eps = adam_.eps;
  // Bias-corrected step size folded into one scalar, as PyTorch's Adam does.
  const double bc1 = 1.0 - std::pow(static_cast<double>(b1), static_cast<double>(t_));
  const double bc2 = 1.0 - std::pow(static_cast<double>(b2), static_cast<double>(t_));
  const auto step = static_cast<float>(lr / bc1);
  const auto sq = static_cast<float>(std::sqrt(bc2));
  for (std::size_t k = 0; k < params_.size(); ++k) {
    auto& p = params_[k];
    float* m = m_[k].data();
    float* v = v_[k].data();
    if (p.decay && adam_.weight_decay != 0) {
      const float keep = 1.0f - lr * adam_.weight_decay;
      for (std::size_t i = 0; i < p.n; ++i) p.w[i] *= keep;
    }
    for (std::size_t i = 0; i < p.n; ++i) {
      const float g = p.g[i];
      m[i] = b1 * m[i] + (1.0f - b1) * g;
      v[i] = b2 * v[i] + (1.0f - b2) * g * g;
      p.w[i] -= step * m[i] / (std::sqrt(v[i]) / sq + eps);
    }
  }
}

}  // namespace lumen::train
