// The embedding layer at GPT-2 small's shape: V = 50257, d = 768, ids (8,1024).
// Threads: LUMEN_BENCH_THREADS (default: all cores); OpenBLAS is set to the same count.
// bench/compare_embedding.py runs this next to PyTorch and prints the ratios.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/onehot.hpp"
#include "lumen/nn/output_head.hpp"

namespace {

constexpr std::size_t kV = 50257, kD = 768, kB = 8, kT = 1024, kHidden = 1024;

std::size_t threads() {
  const char* s = std::getenv("LUMEN_BENCH_THREADS");
  return s ? std::strtoul(s, nullptr, 10) : 0;
}
// Rows of ids for the one-hot case (LUMEN_BENCH_ONEHOT_B, default 8): its (B*T, V) matrix is 1.6 GB at 8.
std::size_t onehot_b() {
  const char* s = std::getenv("LUMEN_BENCH_ONEHOT_B");
  return s ? std::strtoul(s, nullptr, 10) : kB;
}

std::vector<lumen::Id> ids(std::size_t n) {
  lumen::Rng r(7);
  std::vector<lumen::Id> v(n);
  for (auto& i : v) i = static_cast<lumen::Id>(r.below(kV));
  return v;
}

lumen::nn::Embedding& table() {
  static lumen::nn::Embedding emb = [] {
    lumen::nn::Embedding e(kV, kD);
    e.init_normal(0.02f, 1);
    return e;
  }();
  return emb;
}

void BM_Forward(benchmark::State& state) {
  auto& emb = table();
  const auto x = ids(kB * kT);
  lumen::Matrix Y(kB * kT, kD);  // (B*T, d), allocated as the library allocates its outputs
  for (auto _ : state) {
    emb.forward(x, kB, kT, Y.f32_mut(), threads());
    benchmark::DoNotOptimize(Y.f32().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kB * kT * kD * sizeof(float) * 2));
}

// The floor for the forward pass: memcpy of the same bytes (B*T rows of E, contiguous) at the same thread count.
void BM_Memcpy(benchmark::State& state) {
  const lumen::Matrix& E = std::as_const(table()).E();
  lumen::Matrix Y(kB * kT, kD);
  const std::size_t row_bytes = kD * sizeof(float);
  for (auto _ : state) {
    lumen::parallel_for(kB * kT, threads(), [&](std::size_t b, std::size_t e, std::size_t) {
      std::memcpy(Y.row_mut(b).data(), E.row_ptr(b), (e - b) * row_bytes);
    });
    benchmark::DoNotOptimize(Y.f32().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kB * kT * kD * sizeof(float) * 2));
}

void BM_Backward(benchmark::State& state) {
  auto& emb = table();
  const auto x = ids(kB * kT);
  std::vector<float> dY(kB * kT * kD, 1e-3f);
  emb.dE();  // allocated up front: backward accumulates into it
  for (auto _ : state) {
    emb.backward(x, dY, threads());
    benchmark::ClobberMemory();
  }
}

// zero_grad (a 154 MB memset) then backward: what a fresh dense gradient costs, as torch returns one.
void BM_ZeroGradBackward(benchmark::State& state) {
  auto& emb = table();
  const auto x = ids(kB * kT);
  std::vector<float> dY(kB * kT * kD, 1e-3f);
  emb.dE();
  for (auto _ : state) {
    emb.zero_grad();
    emb.backward(x, dY, threads());
    benchmark::ClobberMemory();
  }
}

void BM_OneHot(benchmark::State& state) {
  const auto x = ids(onehot_b() * kT);
  for (auto _ : state) {
    lumen::Matrix y = lumen::nn::embed_via_onehot(table().E(), x, threads());
    benchmark::DoNotOptimize(y.data());
  }
}

void BM_Logits(benchmark::State& state) {
  auto head = lumen::nn::OutputHead::tied(table());
  lumen::Rng r(3);
  std::vector<float> h(kHidden * kD), logits(kHidden * kV);
  for (auto& v : h) v = static_cast<float>(r.normal());
  for (auto _ : state) {
    head.forward(h, kHidden, logits, threads());
    benchmark::DoNotOptimize(logits.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * kHidden * kV * kD * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_Forward)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Backward)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ZeroGradBackward)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OneHot)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1)->Repetitions(3);
BENCHMARK(BM_Logits)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

int main(int argc, char** argv) {
  if (threads() != 0) lumen::set_default_threads(threads());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
