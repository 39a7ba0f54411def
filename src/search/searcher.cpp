#include "lumen/search/searcher.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <limits>

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/search/scan.hpp"
#include "topk.hpp"

namespace lumen::search {
namespace {

constexpr std::size_t kScanBlock = 256;          // rows per kernel call in a streaming pass (scores stay in L1)
constexpr std::size_t kMinRowsPerThread = 4096;  // below this a thread costs more than it saves
constexpr std::size_t kGemmRows = 2048;          // rows of E per GEMM block in batch search

void raw_rows(const ScanKernels& k, const Matrix& E, const float* q, Metric m, std::size_t begin, std::size_t n,
              float* out) {
  const std::size_t d = E.cols();
  const bool l2 = m == Metric::euclidean;
  switch (E.dtype()) {
    case DType::f32: {
      const float* rows = reinterpret_cast<const float*>(E.row_ptr(begin));
      (l2 ? k.l2sq_f32 : k.dots_f32)(q, rows, n, d, out);
      return;
    }
    case DType::f16: {
      const auto* rows = reinterpret_cast<const std::uint16_t*>(E.row_ptr(begin));
      (l2 ? k.l2sq_f16 : k.dots_f16)(q, rows, n, d, out);
      return;
    }
    case DType::bf16: {
      const auto* rows = reinterpret_cast<const std::uint16_t*>(E.row_ptr(begin));
      (l2 ? k.l2sq_bf16 : k.dots_bf16)(q, rows, n, d, out);
      return;
    }
  }
}

float vector_norm(const kernels::Table& k, const float* v, std::size_t n) { return std::sqrt(k.dot_f32(v, v, n)); }

std::vector<Id> sorted_unique(std::vector<Id> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

bool contains(const std::vector<Id>& sorted, Id id) { return std::binary_search(sorted.begin(), sorted.end(), id); }

std::size_t rows_to_search(const Table& t, const SearchOptions& o) {
  if (o.k == 0) throw UsageError("k must be at least 1");
  return o.restrict_rows == 0 ? t.V() : std::min(o.restrict_rows, t.V());
}

// k as far as the rows allow: a k beyond them asks for every row, and must not size a heap of k entries.
std::size_t k_within(const SearchOptions& o, std::size_t rows) { return std::min(o.k, rows); }

std::size_t scan_threads(std::size_t n, std::size_t threads) {
  if (threads == 0) threads = default_threads();
  return std::max<std::size_t>(1, std::min(threads, n / kMinRowsPerThread));
}

// search_batch's steps.

void check_batch_queries(const Matrix& Q, std::size_t d, const std::vector<std::vector<Id>>& per_query) {
  if (Q.dtype() != DType::f32) throw UsageError("queries must be f32");
  if (!per_query.empty() && per_query.size() != Q.rows())
    throw UsageError(fmt::format("{} exclusion lists for {} queries", per_query.size(), Q.rows()));
  if (Q.cols() != d && Q.rows() != 0)
    throw InputError(fmt::format("queries have {} dimensions, the table has d = {}", Q.cols(), d));
}

// Query b's exclusions, sorted: options.exclude and its own list.
std::vector<Id> batch_exclusions(const SearchOptions& o, const std::vector<std::vector<Id>>& per_query, std::size_t b) {
  std::vector<Id> ids = o.exclude;
  if (!per_query.empty()) ids.insert(ids.end(), per_query[b].begin(), per_query[b].end());
  return sorted_unique(std::move(ids));
}

// One streaming pass (search()) per row of Q, each with its own exclusions.
std::vector<std::vector<Neighbour>> search_each(const Searcher& s, const Matrix& Q, const SearchOptions& o,
                                                const std::vector<std::vector<Id>>& per_query) {
  std::vector<std::vector<Neighbour>> out(Q.rows());
  SearchOptions ob = o;
  for (std::size_t b = 0; b < Q.rows(); ++b) {
    if (!per_query.empty()) ob.exclude = batch_exclusions(o, per_query, b);
    out[b] = s.search(Q.row(b), ob);
  }
  return out;
}

// GEMM computes q.r in another order than the scan kernel. Both are within (d+16) 2^-24 |q||r| of the exact
// value, so a row whose GEMM key is more than `tol` below the k-th best GEMM key cannot be in the exact top k;
// the rows within it are rescored with the scan kernel and ranked exactly as search() does.
float gemm_tolerance(Metric m, std::size_t d, float qn, float max_norm) {
  const float rel = static_cast<float>(d + 16) * 0x1.0p-22f;
  switch (m) {
    case Metric::cosine: return rel + 1e-6f;
    case Metric::dot: return rel * qn * max_norm * 1.01f + 1e-30f;
    case Metric::euclidean: return rel * (qn + max_norm) * (qn + max_norm) * 1.01f + 1e-30f;
  }
  return 0.0f;
}

// A row's key from its GEMM dot product q.r: higher ranks first, as in search(); nan ranks last.
float gemm_key(Metric m, float dot, float qn, float rn) {
  float key;
  switch (m) {
    case Metric::cosine: key = finish_score(m, dot, qn, rn); break;
    case Metric::dot: key = dot; break;
    default: key = -(qn * qn + rn * rn - 2.0f * dot); break;
  }
  return std::isnan(key) ? -std::numeric_limits<float>::infinity() : key;
}

struct GemmCandidates {
  std::vector<float> best;                 // min-heap of the k best GEMM keys
  std::vector<std::pair<float, Id>> rows;  // every row within tol of the k-th best when it was seen

  void offer(float key, Id id, float tol, std::size_t k, const std::vector<Id>& exclude) {
    const bool full = best.size() >= k;
    if (full && key < best.front() - tol) return;
    if (!exclude.empty() && contains(exclude, id)) return;
    rows.emplace_back(key, id);
    if (!full) {
      best.push_back(key);
      std::push_heap(best.begin(), best.end(), std::greater<float>());
    } else if (key > best.front()) {
      std::pop_heap(best.begin(), best.end(), std::greater<float>());
      best.back() = key;
      std::push_heap(best.begin(), best.end(), std::greater<float>());
    }
  }
};

// A GEMM batch search in progress: per query its norm, tolerance, exclusions and candidates.
struct GemmBatch {
  Metric m = Metric::cosine;
  std::size_t k = 0;
  std::size_t threads = 0;
  std::vector<float> qn, tol;
  std::vector<std::vector<Id>> exclude;  // one shared list, or one per query
  std::vector<GemmCandidates> cand;

  const std::vector<Id>& excluded(std::size_t b) const { return exclude[exclude.size() == 1 ? 0 : b]; }
};

GemmBatch prepare_gemm_batch(const Matrix& Q, const SearchOptions& o, const std::vector<std::vector<Id>>& per_query,
                             float max_norm) {
  const std::size_t B = Q.rows(), dd = Q.cols();
  GemmBatch g;
  g.m = o.metric;
  g.k = o.k;
  g.threads = o.threads == 0 ? default_threads() : o.threads;
  g.exclude.resize(per_query.empty() ? 1 : B);
  for (std::size_t b = 0; b < g.exclude.size(); ++b) g.exclude[b] = batch_exclusions(o, per_query, b);
  const auto& kern = kernels::active();
  g.qn.resize(B);
  g.tol.resize(B);
  for (std::size_t b = 0; b < B; ++b) {
    g.qn[b] = vector_norm(kern, Q.row(b).data(), dd);
    g.tol[b] = gemm_tolerance(g.m, dd, g.qn[b], max_norm);
  }
  g.cand.resize(B);
  return g;
}

// Rows [s, s + len) of E as f32 (len, d): f32 rows where they lie, f16/bf16 widened into buf.
const float* gemm_rows(const Matrix& E, std::size_t s, std::size_t len, std::size_t threads, const kernels::Table& kern,
                       std::vector<float>& buf) {
  if (E.dtype() == DType::f32) return reinterpret_cast<const float*>(E.row_ptr(s));
  const std::size_t dd = E.cols();
  parallel_for(len, std::min<std::size_t>(threads, 1 + len / 256), [&](std::size_t b, std::size_t e, std::size_t) {
    const auto* src = reinterpret_cast<const std::uint16_t*>(E.row_ptr(s + b));
    if (E.dtype() == DType::f16) kern.f16_to_f32(src, buf.data() + b * dd, (e - b) * dd);
    else kern.bf16_to_f32(src, buf.data() + b * dd, (e - b) * dd);
  });
  return buf.data();
}

// Offers rows [s, s + len) to every query's candidates, keyed from their GEMM scores S (B, len).
void offer_block(GemmBatch& g, const float* S, std::size_t s, std::size_t len, std::span<const float> norms) {
  parallel_for(g.cand.size(), g.threads, [&](std::size_t b0, std::size_t b1, std::size_t) {
    for (std::size_t b = b0; b < b1; ++b) {
      GemmCandidates& c = g.cand[b];
      const float* sb = S + b * len;
      const float qnb = g.qn[b], tb = g.tol[b];
      const std::vector<Id>& ex = g.excluded(b);
      for (std::size_t i = 0; i < len; ++i) {
        const std::size_t r = s + i;
        c.offer(gemm_key(g.m, sb[i], qnb, norms[r]), static_cast<Id>(r), tb, g.k, ex);
      }
    }
  });
}

// Rows [0, n) through GEMM against every query, kGemmRows at a time, each block offered to the candidates.
void gemm_scan(GemmBatch& g, const ScopedBlasThreads& guard, const Matrix& Q, const Searcher& searcher, std::size_t n) {
  const Matrix& E = searcher.table().E;
  const std::size_t B = Q.rows(), dd = Q.cols();
  const std::size_t block = std::min(kGemmRows, n);
  const auto& kern = kernels::active();
  std::vector<float> S(B * block);                                      // GEMM scores (B, block)
  std::vector<float> Eblock(E.dtype() == DType::f32 ? 0 : block * dd);  // f16/bf16 rows as f32 (block, d)
  for (std::size_t s = 0; s < n; s += block) {
    const std::size_t len = std::min(block, n - s);
    const float* rows = gemm_rows(E, s, len, g.threads, kern, Eblock);
    // S (B, len) = Q (B, d) . rows (len, d)^T
    blas::sgemm(guard, blas::Op::N, blas::Op::T, B, len, dd, 1.0f, Q.row(0).data(), dd, rows, dd, 0.0f, S.data(), len);
    offer_block(g, S.data(), s, len, searcher.norms());
  }
}

// Rescore the surviving candidates exactly (the scan kernel, as search() does) and rank them.
std::vector<std::vector<Neighbour>> rank_candidates(GemmBatch& g, const Matrix& Q, const Searcher& searcher) {
  const Matrix& E = searcher.table().E;
  const std::span<const float> norms = searcher.norms();
  std::vector<std::vector<Neighbour>> out(Q.rows());
  parallel_for(Q.rows(), g.threads, [&](std::size_t b0, std::size_t b1, std::size_t) {
    for (std::size_t b = b0; b < b1; ++b) {
      GemmCandidates& c = g.cand[b];
      const float floor = c.best.size() >= g.k ? c.best.front() - g.tol[b] : -std::numeric_limits<float>::infinity();
      const float* q = Q.row(b).data();
      std::vector<detail::Entry> all;
      for (const auto& [key, id] : c.rows) {
        if (key < floor) continue;
        float raw;
        raw_rows(scan_kernels(), E, q, g.m, static_cast<std::size_t>(id), 1, &raw);  // as Searcher::raw_block
        const float score = finish_score(g.m, raw, g.qn[b], norms[static_cast<std::size_t>(id)]);
        all.push_back({rank_key(g.m, score), score, id});
      }
      out[b] = detail::best(std::move(all), g.k);
      c = GemmCandidates{};  // its memory back now, not after the whole batch
    }
  });
  return out;
}

}  // namespace

Searcher::Searcher(const Table& table, std::size_t threads) : table_(&table), norms_(table.V()) {
  const std::size_t V = table.V(), d = table.d();
  const auto& k = kernels::active();
  const bool f32 = table.E.dtype() == DType::f32;
  parallel_for(V, scan_threads(V, threads), [&](std::size_t b, std::size_t e, std::size_t) {
    std::vector<float> buf(f32 ? 0 : d);
    for (std::size_t r = b; r < e; ++r) {
      const float* row = reinterpret_cast<const float*>(table.E.row_ptr(r));  // f32 rows are read where they lie
      if (!f32) {                                                             // f16/bf16 widened first
        table.E.row_f32(r, buf.data());
        row = buf.data();
      }
      norms_[r] = vector_norm(k, row, d);
    }
  });
  for (float n : norms_)
    if (n > max_norm_) max_norm_ = n;
}

float Searcher::norm(Id id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= V()) throw IdError(id, 0, static_cast<std::int64_t>(V()));
  return norms_[static_cast<std::size_t>(id)];
}

std::vector<float> Searcher::row(Id id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= V()) throw IdError(id, 0, static_cast<std::int64_t>(V()));
  std::vector<float> out(d());
  table_->E.row_f32(static_cast<std::size_t>(id), out.data());
  return out;
}

std::vector<float> Searcher::unit_row(Id id) const {
  std::vector<float> v = row(id);
  const float n = norm(id);
  if (n > 0.0f)
    for (float& x : v) x /= n;
  return v;
}

void Searcher::check_query(std::span<const float> q) const {
  if (q.size() != d()) throw InputError(fmt::format("query has {} dimensions, the table has d = {}", q.size(), d()));
}

void Searcher::raw_block(const float* q, Metric m, std::size_t begin, std::size_t n, float* out) const {
  raw_rows(scan_kernels(), table_->E, q, m, begin, n, out);
}

float Searcher::score(std::span<const float> q, Id id, Metric m) const {
  check_query(q);
  const float rn = norm(id);
  float raw;
  raw_block(q.data(), m, static_cast<std::size_t>(id), 1, &raw);
  return finish_score(m, raw, vector_norm(kernels::active(), q.data(), q.size()), rn);
}

float Searcher::similarity(Id a, Id b, Metric m) const { return score(row(a), b, m); }

void Searcher::scores(std::span<const float> q, Metric m, std::span<float> out, std::size_t threads) const {
  check_query(q);
  if (out.size() > V()) throw UsageError(fmt::format("asked for {} scores, the table has {} rows", out.size(), V()));
  const float qn = vector_norm(kernels::active(), q.data(), q.size());
  parallel_for(out.size(), scan_threads(out.size(), threads), [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t s = b; s < e; s += kScanBlock) {
      const std::size_t len = std::min(kScanBlock, e - s);
      float* o = out.data() + s;
      raw_block(q.data(), m, s, len, o);
      for (std::size_t i = 0; i < len; ++i) o[i] = finish_score(m, o[i], qn, norms_[s + i]);
    }
  });
}

std::vector<Neighbour> Searcher::search(std::span<const float> q, const SearchOptions& o) const {
  check_query(q);
  const std::size_t n = rows_to_search(*table_, o);
  const std::vector<Id> exclude = sorted_unique(o.exclude);
  const std::size_t k = k_within(o, n);
  if (k == 0) return {};
  const float qn = vector_norm(kernels::active(), q.data(), q.size());
  const std::size_t T = scan_threads(n, o.threads);
  std::vector<detail::TopK> tops(T, detail::TopK(k));
  const Metric m = o.metric;
  parallel_for(n, T, [&](std::size_t b, std::size_t e, std::size_t t) {
    detail::TopK& top = tops[t];
    float raw[kScanBlock];
    for (std::size_t s = b; s < e; s += kScanBlock) {
      const std::size_t len = std::min(kScanBlock, e - s);
      raw_block(q.data(), m, s, len, raw);
      for (std::size_t i = 0; i < len; ++i) {
        const float score = finish_score(m, raw[i], qn, norms_[s + i]);
        const float key = rank_key(m, score);
        const Id id = static_cast<Id>(s + i);
        if (top.admits(key, id) && (exclude.empty() || !contains(exclude, id))) top.push({key, score, id});
      }
    }
  });
  std::vector<detail::Entry> all;
  for (const auto& top : tops) all.insert(all.end(), top.entries().begin(), top.entries().end());
  return detail::best(std::move(all), k);
}

std::vector<std::vector<Neighbour>> Searcher::search_batch(const Matrix& Q, const SearchOptions& o) const {
  return search_batch(Q, o, {});
}

std::vector<std::vector<Neighbour>> Searcher::search_batch(const Matrix& Q, const SearchOptions& o,
                                                           const std::vector<std::vector<Id>>& per_query) const {
  check_batch_queries(Q, d(), per_query);
  const std::size_t n = rows_to_search(*table_, o);
  if (Q.rows() == 0) return {};
  // too few queries for GEMM to pay off: one streaming pass each
  if (Q.rows() < 8 || n < 256) return search_each(*this, Q, o, per_query);
  GemmBatch g = prepare_gemm_batch(Q, o, per_query, max_norm_);
  const ScopedBlasThreads guard(g.threads);
  gemm_scan(g, guard, Q, *this, n);
  return rank_candidates(g, Q, *this);
}

float similarity(std::span<const float> a, std::span<const float> b, Metric m) {
  if (a.size() != b.size())
    throw InputError(fmt::format("vectors of different lengths ({} and {})", a.size(), b.size()));
  const auto& k = scan_kernels();
  float raw = 0.0f;
  (m == Metric::euclidean ? k.l2sq_f32 : k.dots_f32)(a.data(), b.data(), 1, a.size(), &raw);
  const auto& kern = kernels::active();
  return finish_score(m, raw, vector_norm(kern, a.data(), a.size()), vector_norm(kern, b.data(), b.size()));
}

std::vector<Neighbour> brute_force(const Table& table, std::span<const float> q, const SearchOptions& o) {
  if (q.size() != table.d())
    throw InputError(fmt::format("query has {} dimensions, the table has d = {}", q.size(), table.d()));
  const std::size_t n = rows_to_search(table, o);
  const auto& kern = kernels::table(Isa::generic);
  const auto& scan = scan_kernels(Isa::generic);
  const std::vector<Id> exclude = sorted_unique(o.exclude);
  const float qn = vector_norm(kern, q.data(), q.size());
  std::vector<float> buf(table.d());
  std::vector<detail::Entry> all;
  for (std::size_t r = 0; r < n; ++r) {
    if (contains(exclude, static_cast<Id>(r))) continue;
    table.E.row_f32(r, buf.data());
    const float rn = vector_norm(kern, buf.data(), buf.size());
    float raw;
    raw_rows(scan, table.E, q.data(), o.metric, r, 1, &raw);
    const float score = finish_score(o.metric, raw, qn, rn);
    all.push_back({rank_key(o.metric, score), score, static_cast<Id>(r)});
  }
  std::sort(all.begin(), all.end(), detail::before);
  all.resize(std::min(all.size(), o.k));
  std::vector<Neighbour> out;
  out.reserve(all.size());
  for (const auto& e : all) out.push_back({e.id, e.score});
  return out;
}

}  // namespace lumen::search
