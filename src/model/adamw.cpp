// AdamW's update, the warm-up + cosine learning-rate schedule and global-norm gradient clipping.
#include "lumen/model/adamw.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "lumen/core/error.hpp"

namespace lumen::model {

AdamW::AdamW(const AdamWOptions& options, const std::vector<std::size_t>& sizes, std::vector<bool> decay)
    : o_(options), decay_(std::move(decay)) {
  if (sizes.size() != decay_.size()) throw InputError("AdamW: one decay flag per tensor is needed");
  for (std::size_t n : sizes) {
    m_.emplace_back(n, 0.0f);
    v_.emplace_back(n, 0.0f);
  }
}

void AdamW::step(const std::vector<float*>& w, const std::vector<const float*>& g, float lr) {
  ++t_;
  const double t = static_cast<double>(t_);
  const auto c1 = static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(o_.beta1), t)));
  const auto c2 = static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(o_.beta2), t)));
  for (std::size_t k = 0; k < m_.size(); ++k) {
    float* p = w[k];
    const float* d = g[k];
    float* m = m_[k].data();
    float* v = v_[k].data();
    const float wd = decay_[k] ? o_.weight_decay : 0.0f;
    for (std::size_t i = 0; i < m_[k].size(); ++i) {
      m[i] = o_.beta1 * m[i] + (1.0f - o_.beta1) * d[i];
      v[i] = o_.beta2 * v[i] + (1.0f - o_.beta2) * d[i] * d[i];
      const float mhat = m[i] * c1, vhat = v[i] * c2;
      p[i] -= lr * (mhat / (std::sqrt(vhat) + o_.eps) + wd * p[i]);
    }
  }
}

float cosine_lr(std::uint64_t step, std::uint64_t steps, std::uint64_t warmup, float peak_lr, float min_lr) {
  if (step < warmup) return peak_lr * static_cast<float>(step + 1) / static_cast<float>(warmup);
  if (steps <= warmup + 1) return peak_lr;
  const double progress = static_cast<double>(step - warmup) / static_cast<double>(steps - warmup - 1);
  const double coeff = 0.5 * (1.0 + std::cos(std::numbers::pi * std::min(progress, 1.0)));  // 1 -> 0
  return static_cast<float>(min_lr + coeff * (peak_lr - min_lr));
}

double clip_grad_norm(const std::vector<float*>& g, const std::vector<std::size_t>& sizes, double max_norm) {
  double sq = 0;
  for (std::size_t k = 0; k < g.size(); ++k)
    for (std::size_t i = 0; i < sizes[k]; ++i) sq += static_cast<double>(g[k][i]) * g[k][i];
  const double norm = std::sqrt(sq);
  if (max_norm > 0 && norm > max_norm) {
    const auto scale = static_cast<float>(max_norm / (norm + 1e-6));
    for (std::size_t k = 0; k < g.size(); ++k)
      for (std::size_t i = 0; i < sizes[k]; ++i) g[k][i] *= scale;
  }
  return norm;
}

}  // namespace lumen::model
