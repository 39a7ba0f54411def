// lumen::model's forward pass on a GPT-2-small-shaped model (V 50257, d 768, 12 layers, 12 heads, context 1024;
// random weights) over 1 x 1024 tokens, logits for every position as a language model's training or scoring pass
// computes them; the same with the next-token logits only; and this machine's sgemm peak (2048^3, same threads),
// for GFLOP/s against it. Counters: GFLOP/s of the forward (2 per multiply-add, causal attention counted as half).
// Training: one step (forward, backward, gradient clipping, AdamW) of the tiny GPT of `lumen train gpt`'s issue
// (V 50257, d 128, 4 layers, 4 heads, context 128, batch 8), tied and untied.
// A checkpoint's forward (the next-token logits after 1024 tokens, or its context if shorter) when
// LUMEN_BENCH_CHECKPOINT names one: a GGUF file or model directory, its weights as they load (f16 stays f16), for
// bench/compare_gpt.py's f16-against-f16 row.
// Threads: LUMEN_BENCH_THREADS (default: all cores); OpenBLAS is set to the same count.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/gpt_backprop.hpp"
#include "lumen/model/gpt_trainer.hpp"
#include "lumen/model/schedule.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/train/optimizer.hpp"

namespace {

std::size_t threads() {
  const char* s = std::getenv("LUMEN_BENCH_THREADS");
  return s != nullptr ? static_cast<std::size_t>(std::atoi(s)) : lumen::default_threads();
}

std::vector<float> random(std::size_t n, float scale, lumen::Rng& rng) {
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(rng.normal()) * scale;
  return v;
}

const lumen::model::Transformer& gpt2_small() {
  static const lumen::model::Transformer m = [] {
    lumen::model::Config c;
    c.model_type = "gpt2";
    c.shape = lumen::nn::ModelShape{};  // the calculator's default is GPT-2 small
    const auto& s = c.shape;
    const std::size_t C = s.d, F = s.ffn;
    lumen::Rng rng(1);
    lumen::model::Weights w;
    w.wte = random(s.V * C, 0.02f, rng);
    w.wpe = random(s.context * C, 0.01f, rng);
    for (std::size_t l = 0; l < s.layers; ++l) {
      lumen::model::BlockWeights b;
      b.norm1_w.assign(C, 1.0f);
      b.norm1_b.assign(C, 0.0f);
      b.qkv_w = random(3 * C * C, 0.02f, rng);
      b.qkv_b.assign(3 * C, 0.0f);
      b.attn_proj_w = random(C * C, 0.02f, rng);
      b.attn_proj_b.assign(C, 0.0f);
      b.norm2_w.assign(C, 1.0f);
      b.norm2_b.assign(C, 0.0f);
      b.fc_w = random(F * C, 0.02f, rng);
      b.fc_b.assign(F, 0.0f);
      b.proj_w = random(C * F, 0.02f, rng);
      b.proj_b.assign(C, 0.0f);
      w.blocks.push_back(std::move(b));
    }
    w.normf_w.assign(C, 1.0f);
    w.normf_b.assign(C, 0.0f);
    return lumen::model::Transformer(std::move(c), std::move(w));
  }();
  return m;
}

std::vector<std::int32_t> ids(std::size_t T) {
  lumen::Rng rng(2);
  std::vector<std::int32_t> v(T);
  for (auto& x : v) x = static_cast<std::int32_t>(rng.below(50257));
  return v;
}

void forward(benchmark::State& state, bool last_only) {
  const auto& m = gpt2_small();
  const auto x = ids(1024);
  lumen::model::ForwardOptions o;
  o.threads = threads();
  o.last_only = last_only;
  for (auto _ : state) benchmark::DoNotOptimize(m.forward(x, o).logits.data());
  const double flops = m.flops(1024, last_only ? 1 : 1024);
  state.counters["GFLOPs"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CheckpointForwardLastLogits(benchmark::State& state) {
  const char* path = std::getenv("LUMEN_BENCH_CHECKPOINT");
  if (path == nullptr) {
    state.SkipWithError("set LUMEN_BENCH_CHECKPOINT to a GGUF file or model directory");
    return;
  }
  const lumen::model::Transformer m = lumen::model::load_checkpoint(path);
  const std::size_t T = std::min<std::size_t>(1024, m.shape().context);
  std::vector<std::int32_t> x = ids(T);
  for (auto& id : x) id %= static_cast<std::int32_t>(m.shape().V);
  lumen::model::ForwardOptions o;
  o.threads = threads();
  o.last_only = true;
  for (auto _ : state) benchmark::DoNotOptimize(m.forward(x, o).logits.data());
  state.counters["GFLOPs"] = benchmark::Counter(m.flops(T, 1) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Gpt2SmallForward(benchmark::State& state) { forward(state, false); }
void BM_Gpt2SmallForwardLastLogits(benchmark::State& state) { forward(state, true); }

// Where the time goes: the head alone (1024 x 768 x 50257).
void BM_Gpt2SmallHead(benchmark::State& state) {
  const auto& m = gpt2_small();
  std::vector<float> h(1024 * 768, 0.01f), logits(1024 * 50257);
  for (auto _ : state) m.head(logits.data(), h.data(), 1024, threads());
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * 1024 * 768 * 50257 / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_SgemmPeak(benchmark::State& state) {
  const std::size_t n = 2048;
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  const lumen::ScopedBlasThreads guard(threads());
  for (auto _ : state)
    lumen::blas::sgemm(guard, lumen::blas::Op::N, lumen::blas::Op::T, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                       c.data(), n);
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * n * n * double(n) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

// One optimizer step of the tiny GPT: what `lumen train gpt` repeats.
void train_step(benchmark::State& state, bool tied) {
  const lumen::nn::ModelShape s{
      .V = 50257, .d = 128, .layers = 4, .heads = 4, .kv_heads = 4, .ffn = 512, .context = 128, .tied = tied};
  const std::size_t B = 8, T = 128, n = threads();
  lumen::model::Weights w = lumen::model::gpt2_init(s, 1);
  lumen::model::Weights g = lumen::model::zeros_like(w);
  lumen::model::GptBackprop pass(s, B, T);
  std::vector<std::size_t> sizes;
  std::vector<lumen::train::ParamRef> ps;
  const auto wt = lumen::model::tensors(w), gt = lumen::model::tensors(g);
  for (std::size_t k = 0; k < wt.size(); ++k) {
    sizes.push_back(wt[k]->size());
    ps.push_back({wt[k]->data(), gt[k]->data(), wt[k]->size()});
  }
  lumen::train::Optimizer opt(lumen::train::OptimizerKind::adam, std::move(ps), {.beta2 = 0.95f});
  lumen::Rng rng(3);
  std::vector<std::int32_t> in(B * T), tg(B * T);
  for (auto& x : in) x = static_cast<std::int32_t>(rng.below(s.V));
  for (auto& x : tg) x = static_cast<std::int32_t>(rng.below(s.V));
  std::vector<float*> gp;
  for (auto* t : lumen::model::tensors(g)) gp.push_back(t->data());
  for (auto _ : state) {
    lumen::model::set_zero(g);
    benchmark::DoNotOptimize(pass.forward(w, in.data(), tg.data(), n));
    pass.backward(w, g, in.data(), tg.data(), n);
    lumen::model::clip_grad_norm(gp, sizes, 1.0);
    opt.step(1e-4f);
  }
  state.counters["tok/s"] = benchmark::Counter(double(B * T), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_GptTrainStepTied(benchmark::State& state) { train_step(state, true); }
void BM_GptTrainStepUntied(benchmark::State& state) { train_step(state, false); }

}  // namespace

BENCHMARK(BM_GptTrainStepTied)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_GptTrainStepUntied)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_SgemmPeak)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Gpt2SmallHead)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Gpt2SmallForward)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Gpt2SmallForwardLastLogits)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_CheckpointForwardLastLogits)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK_MAIN();
