#pragma once
// Why init std matters: with entries ~ N(0, s^2), the dot product of two independent rows of E (length d)
// has mean 0 and standard deviation s^2 sqrt(d); a row's norm is about s sqrt(d). Scaling the output by
// sqrt(d) multiplies every dot product by d. init_stats measures these on a freshly initialised table.
#include <cstddef>
#include <cstdint>

namespace lumen::nn {

struct InitStatsOptions {
  std::size_t d = 768;
  double std = 0.02;
  std::size_t samples = 100000;  // pairs of distinct rows
  std::uint64_t seed = 0;
  std::size_t V = 4096;  // rows of the table the pairs are drawn from
};

struct InitStats {
  InitStatsOptions options;
  double predicted_dot_std = 0;  // std^2 sqrt(d)
  double measured_dot_std = 0;
  double measured_dot_mean = 0;
  double predicted_scaled_dot_std = 0;  // (std sqrt(d))^2 sqrt(d) = std^2 d sqrt(d)
  double measured_scaled_dot_std = 0;
  double predicted_row_norm = 0;  // std sqrt(d)
  double measured_row_norm = 0;   // mean over the table's rows
};

// The sizes init_stats accepts: the table is allocated (V x d f32), and every sample is two lookups and two
// dot products of length d, so larger sizes are refused up front (UsageError naming the limit) rather than
// failing to allocate or running for hours.
inline constexpr std::size_t kInitStatsMaxDim = 65536;                   // wider than any published model
inline constexpr std::size_t kInitStatsMaxRows = 1'000'000;              // rows V
inline constexpr std::size_t kInitStatsMaxTable = std::size_t{1} << 28;  // V x d floats: 1 GiB
inline constexpr std::size_t kInitStatsMaxWork = 10'000'000'000;         // samples x d: about a minute

// Builds an Embedding (V,d), init_normal(std, seed), draws `samples` pairs of distinct rows (Rng(seed+1)),
// and looks them up through forward() without and with the sqrt(d) scale. Throws UsageError for bad options.
InitStats init_stats(const InitStatsOptions& options);

}  // namespace lumen::nn
