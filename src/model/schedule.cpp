// The warm-up + cosine learning-rate schedule and global-norm gradient clipping.
#include "lumen/model/schedule.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lumen::model {

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
