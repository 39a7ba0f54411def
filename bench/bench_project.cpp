// Projection benchmarks: PCA of a GPT-2-sized table, t-SNE's gradient and a whole t-SNE run.
// Peer comparison (scikit-learn) in compare_project.py.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/project/pca.hpp"
#include "lumen/project/tsne.hpp"

using namespace lumen;
using namespace lumen::project;

namespace {

// n rows of D dimensions with a decaying spectrum (like an embedding table) and some clusters.
Matrix synthetic(std::size_t n, std::size_t D, std::uint64_t seed) {
  Rng rng(seed);
  const std::size_t clusters = 20;
  std::vector<float> centres(clusters * D);
  for (auto& c : centres) c = static_cast<float>(2.0 * rng.normal());
  Matrix X(n, D);
  auto x = X.f32_mut();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = rng.below(clusters);
    for (std::size_t j = 0; j < D; ++j)
      x[i * D + j] =
          centres[c * D + j] / std::sqrt(1.0f + static_cast<float>(j)) + static_cast<float>(rng.normal() * 0.5);
  }
  return X;
}

void BM_Pca(benchmark::State& state) {
  const Matrix X = synthetic(static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)), 1);
  for (auto _ : state) {
    const Pca p = fit_pca(X, {}, 2);
    benchmark::DoNotOptimize(pca_transform(p, X, {}).f32().data());
  }
}
BENCHMARK(BM_Pca)->Args({50257, 768})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TsneGradient(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Matrix X = synthetic(n, 50, 2);
  const Neighbours nb = exact_neighbours(X, 90);
  const SparseP P = joint_affinities(nb, conditional_affinities(nb, 30.0));
  Rng rng(3);
  std::vector<float> Y(2 * n), grad;
  for (auto& y : Y) y = static_cast<float>(10.0 * rng.normal());
  const double theta = static_cast<double>(state.range(1)) / 10.0;
  for (auto _ : state) benchmark::DoNotOptimize(tsne_gradient(P, Y, 1.0, theta, grad));
}
BENCHMARK(BM_TsneGradient)
    ->Args({5000, 5})
    ->Args({5000, 0})
    ->Args({50000, 5})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Tsne(benchmark::State& state) {
  const Matrix X = synthetic(static_cast<std::size_t>(state.range(0)), 50, 4);
  TsneOptions o;
  double kl = 0;
  for (auto _ : state) kl = tsne(X, o).kl;
  state.counters["kl"] = kl;
}
BENCHMARK(BM_Tsne)->Arg(5000)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
