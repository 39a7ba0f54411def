#include "lumen/nn/init_stats.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/embedding.hpp"

namespace lumen::nn {

namespace {
// Running mean and variance (Welford), in double.
struct Moments {
  double n = 0, mean = 0, m2 = 0;
  void add(double x) {
    n += 1;
    const double delta = x - mean;
    mean += delta / n;
    m2 += delta * (x - mean);
  }
  double std() const { return n > 1 ? std::sqrt(m2 / (n - 1)) : 0.0; }
};

double dot(const float* a, const float* b, std::size_t d) {
  double s = 0;
  for (std::size_t j = 0; j < d; ++j) s += static_cast<double>(a[j]) * b[j];
  return s;
}
}  // namespace

InitStats init_stats(const InitStatsOptions& o) {
  if (o.d == 0) throw UsageError("d must be at least 1");
  if (!(o.std > 0) || !std::isfinite(o.std)) throw UsageError(fmt::format("std must be > 0 (got {})", o.std));
  if (o.samples < 2) throw UsageError("samples must be at least 2");
  if (o.V < 2) throw UsageError("the table needs at least 2 rows");
  // Sizes beyond these would fail to allocate (exit 3) or run for hours: refused, naming the limit.
  if (o.d > kInitStatsMaxDim) throw UsageError(fmt::format("d = {} is too large (at most {})", o.d, kInitStatsMaxDim));
  if (o.V > kInitStatsMaxRows)
    throw UsageError(fmt::format("{} rows are too many (at most {})", o.V, kInitStatsMaxRows));
  if (o.V * o.d > kInitStatsMaxTable)  // no overflow: both factors are bounded above
    throw UsageError(fmt::format("a table of {} x {} = {} floats is too large (at most {}, 1 GiB)", o.V, o.d, o.V * o.d,
                                 kInitStatsMaxTable));
  if (o.samples > kInitStatsMaxWork / o.d)
    throw UsageError(
        fmt::format("{} samples of d = {} are too many (samples x d at most {})", o.samples, o.d, kInitStatsMaxWork));

  // One table, read through two layers: plain and sqrt(d)-scaled (a borrowed view of the same E).
  Embedding plain(o.V, o.d);
  plain.init_normal(static_cast<float>(o.std), o.seed);
  Embedding scaled(Matrix::borrow(plain.E().data(), o.V, o.d, DType::f32), {.scale_sqrt_d = true});

  InitStats s;
  s.options = o;
  const double sd = std::sqrt(static_cast<double>(o.d));
  s.predicted_dot_std = o.std * o.std * sd;
  s.predicted_scaled_dot_std = s.predicted_dot_std * static_cast<double>(o.d);
  s.predicted_row_norm = o.std * sd;

  double norm_sum = 0;
  for (std::size_t i = 0; i < o.V; ++i) {
    const float* r = plain.E().row(i).data();
    norm_sum += std::sqrt(dot(r, r, o.d));
  }
  s.measured_row_norm = norm_sum / static_cast<double>(o.V);

  Rng pick(o.seed + 1);
  Moments m, ms;
  constexpr std::size_t kChunk = 1024;  // pairs per forward call
  std::vector<Id> ids;
  std::vector<float> y, ys;
  for (std::size_t done = 0; done < o.samples; done += kChunk) {
    const std::size_t n = std::min(kChunk, o.samples - done);
    ids.resize(2 * n);
    for (std::size_t k = 0; k < n; ++k) {
      const auto i = static_cast<Id>(pick.below(o.V));
      auto j = static_cast<Id>(pick.below(o.V - 1));
      if (j >= i) ++j;  // distinct rows
      ids[2 * k] = i;
      ids[2 * k + 1] = j;
    }
    y.resize(2 * n * o.d);
    ys.resize(2 * n * o.d);
    plain.forward(ids, n, 2, y, 1);
    scaled.forward(ids, n, 2, ys, 1);
    for (std::size_t k = 0; k < n; ++k) {
      m.add(dot(&y[2 * k * o.d], &y[(2 * k + 1) * o.d], o.d));
      ms.add(dot(&ys[2 * k * o.d], &ys[(2 * k + 1) * o.d], o.d));
    }
  }
  s.measured_dot_std = m.std();
  s.measured_dot_mean = m.mean;
  s.measured_scaled_dot_std = ms.std();
  return s;
}

}  // namespace lumen::nn
