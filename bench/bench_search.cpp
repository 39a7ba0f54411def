// Search benchmarks on a GPT-2-small-shaped table (50257 x 768, normal entries): one query top-10 over
// f32, f16 and bf16 rows, the three metrics, and a batch of 1024 queries through GEMM.
// Run: build-search/bench/bench_search  (LUMEN_ISA=avx2|generic to compare variants; LUMEN_BENCH_THREADS=N)
// Peer comparison (FAISS): /usr/bin/python3 bench/compare_search.py
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/search/hnsw.hpp"
#include "lumen/search/searcher.hpp"

using namespace lumen;
using namespace lumen::search;

namespace {

constexpr std::size_t kV = 50257, kD = 768;

struct Fixture {
  Table table;
  std::unique_ptr<Searcher> searcher;
};

const Fixture& fixture(DType dt) {
  static std::map<DType, std::unique_ptr<Fixture>> cache;
  auto& f = cache[dt];
  if (!f) {
    f = std::make_unique<Fixture>();
    Matrix E(kV, kD);
    Rng rng(1);
    for (auto& x : E.f32_mut()) x = static_cast<float>(rng.normal());
    f->table.E = dt == DType::f32 ? std::move(E) : E.to(dt);
    f->table.vocab = Vocab::numbered(kV);
    f->searcher = std::make_unique<Searcher>(f->table);
  }
  return *f;
}

void BM_Query(benchmark::State& state, DType dt, Metric m) {
  const auto& f = fixture(dt);
  SearchOptions o;
  o.k = 10;
  o.metric = m;
  o.threads = static_cast<std::size_t>(state.range(0));
  std::vector<float> q = f.searcher->row(123);
  for (auto _ : state) benchmark::DoNotOptimize(f.searcher->search(q, o));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.table.E.bytes()));
}

void BM_Batch1024(benchmark::State& state, DType dt) {
  const auto& f = fixture(dt);
  SearchOptions o;
  o.k = 10;
  o.threads = static_cast<std::size_t>(state.range(0));
  Matrix Q(1024, kD);
  for (std::size_t b = 0; b < 1024; ++b) {
    const auto r = f.searcher->row(static_cast<Id>(b * 37));
    std::copy(r.begin(), r.end(), Q.row_mut(b).begin());
  }
  for (auto _ : state) benchmark::DoNotOptimize(f.searcher->search_batch(Q, o));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 1024));
}

void BM_Norms(benchmark::State& state) {
  const auto& f = fixture(DType::f32);
  for (auto _ : state) benchmark::DoNotOptimize(Searcher(f.table, static_cast<std::size_t>(state.range(0))));
}

// LUMEN_BENCH_THREADS: the thread count (bench/compare_search.py sets it to FAISS's); default: all cores.
std::int64_t bench_threads() {
  const char* env = std::getenv("LUMEN_BENCH_THREADS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : static_cast<std::int64_t>(default_threads());
}
const std::int64_t kThreads = bench_threads();

// Approximate search: an HNSW graph over the first LUMEN_BENCH_HNSW_ROWS rows of the f32 table (default 20000,
// to keep the build short on a shared machine; M 16, ef_construction 100), built once, one query at a time;
// recall@10 against exact search over the same rows (200 queries) is reported as a counter.
void BM_HnswQuery(benchmark::State& state) {
  const auto& f = fixture(DType::f32);
  HnswOptions ho;
  ho.ef_construction = 100;
  const char* env = std::getenv("LUMEN_BENCH_HNSW_ROWS");
  const std::size_t rows = env != nullptr && std::atol(env) > 0 ? static_cast<std::size_t>(std::atol(env)) : 20000;
  static std::unique_ptr<HnswIndex> index;
  if (!index) index = std::make_unique<HnswIndex>(HnswIndex::build(*f.searcher, Metric::cosine, rows, ho));
  const std::size_t ef = static_cast<std::size_t>(state.range(1));
  // Queries: rows perturbed by noise (a row itself would be found trivially).
  std::vector<std::vector<float>> queries;
  Rng rng(7);
  for (std::size_t i = 0; i < 200; ++i) {
    auto q = f.searcher->row(static_cast<Id>((i * 241) % index->size()));
    for (auto& x : q) x += static_cast<float>(rng.normal());
    queries.push_back(std::move(q));
  }
  std::size_t hits = 0;
  SearchOptions o;
  o.k = 10;
  o.threads = static_cast<std::size_t>(state.range(0));
  o.restrict_rows = index->size();
  for (const auto& q : queries) {
    const auto exact = f.searcher->search(q, o);
    for (const auto& a : index->search(q, 10, {}, ef))
      for (const auto& e : exact) hits += a.id == e.id;
  }
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(index->search(queries[i++ % queries.size()], 10, {}, ef));
  state.counters["recall@10"] = static_cast<double>(hits) / (10.0 * queries.size());
}

}  // namespace

BENCHMARK_CAPTURE(BM_Query, f32_cosine, DType::f32, Metric::cosine)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Query, f16_cosine, DType::f16, Metric::cosine)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Query, bf16_cosine, DType::bf16, Metric::cosine)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Query, f32_dot, DType::f32, Metric::dot)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Query, f32_euclidean, DType::f32, Metric::euclidean)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Query, f32_cosine_1thread, DType::f32, Metric::cosine)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Batch1024, f32, DType::f32)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Batch1024, f16, DType::f16)->Arg(kThreads)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HnswQuery)->Args({kThreads, 64})->Args({kThreads, 256})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Norms)->Arg(kThreads)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
