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
  if (Q.dtype() != DType::f32) throw UsageError("queries must be f32");
  if (!per_query.empty() && per_query.size() != Q.rows())
    throw UsageError(fmt::format("{} exclusion lists for {} queries", per_query.size(), Q.rows()));
  if (Q.cols() != d() && Q.rows() != 0)
    throw InputError(fmt::format("queries have {} dimensions, the table has d = {}", Q.cols(), d()));
  const std::size_t B = Q.rows();
  const std::size_t n = rows_to_search(*table_, o);
  std::vector<std::vector<Neighbour>> out(B);
  if (B == 0) return out;
  // Query b's exclusions, sorted: options.exclude and its own list.
  const auto excluded = [&](std::size_t b) {
    std::vector<Id> ids = o.exclude;
    if (!per_query.empty()) ids.insert(ids.end(), per_query[b].begin(), per_query[b].end());
    return sorted_unique(std::move(ids));
  };
  if (B < 8 || n < 256) {  // too few queries for GEMM to pay off: one streaming pass each
    SearchOptions ob = o;
    for (std::size_t b = 0; b < B; ++b) {
      if (!per_query.empty()) ob.exclude = excluded(b);
      out[b] = search(Q.row(b), ob);
    }
    return out;
  }
  const std::size_t dd = d();
  const Metric m = o.metric;
  const std::size_t T = o.threads == 0 ? default_threads() : o.threads;
  std::vector<std::vector<Id>> exclude(per_query.empty() ? 1 : B);  // one shared list, or one per query
  for (std::size_t b = 0; b < exclude.size(); ++b) exclude[b] = excluded(b);
  const auto& kern = kernels::active();

  // GEMM computes q.r in another order than the scan kernel. Both are within (d+16) 2^-24 |q||r| of the exact
  // value, so a row whose GEMM key is more than `tol` below the k-th best GEMM key cannot be in the exact top k;
  // the rows within it are rescored with the scan kernel and ranked exactly as search() does.
  const float rel = static_cast<float>(dd + 16) * 0x1.0p-22f;
  std::vector<float> qn(B), tol(B);
  for (std::size_t b = 0; b < B; ++b) {
    qn[b] = vector_norm(kern, Q.row(b).data(), dd);
    switch (m) {
      case Metric::cosine: tol[b] = rel + 1e-6f; break;
      case Metric::dot: tol[b] = rel * qn[b] * max_norm_ * 1.01f + 1e-30f; break;
      case Metric::euclidean: tol[b] = rel * (qn[b] + max_norm_) * (qn[b] + max_norm_) * 1.01f + 1e-30f; break;
    }
  }
  struct Candidates {
    std::vector<float> best;                 // min-heap of the k best GEMM keys
    std::vector<std::pair<float, Id>> rows;  // every row within tol of the k-th best when it was seen
  };
  std::vector<Candidates> cand(B);
  const float neg_inf = -std::numeric_limits<float>::infinity();

  const std::size_t block = std::min(kGemmRows, n);
  const Matrix& E = table_->E;
  std::vector<float> S(B * block);                                      // GEMM scores (B, block)
  std::vector<float> Eblock(E.dtype() == DType::f32 ? 0 : block * dd);  // f16/bf16 rows as f32 (block, d)
  const ScopedBlasThreads guard(T);
  for (std::size_t s = 0; s < n; s += block) {
    const std::size_t len = std::min(block, n - s);
    const float* rows = nullptr;
    if (E.dtype() == DType::f32) {
      rows = reinterpret_cast<const float*>(E.row_ptr(s));
    } else {
      parallel_for(len, std::min<std::size_t>(T, 1 + len / 256), [&](std::size_t b, std::size_t e, std::size_t) {
        const auto* src = reinterpret_cast<const std::uint16_t*>(E.row_ptr(s + b));
        if (E.dtype() == DType::f16) kern.f16_to_f32(src, Eblock.data() + b * dd, (e - b) * dd);
        else kern.bf16_to_f32(src, Eblock.data() + b * dd, (e - b) * dd);
      });
      rows = Eblock.data();
    }
    // S (B, len) = Q (B, d) . rows (len, d)^T
    blas::sgemm(guard, blas::Op::N, blas::Op::T, B, len, dd, 1.0f, Q.row(0).data(), dd, rows, dd, 0.0f, S.data(), len);
    parallel_for(B, T, [&](std::size_t b0, std::size_t b1, std::size_t) {
      for (std::size_t b = b0; b < b1; ++b) {
        Candidates& c = cand[b];
        const float* sb = S.data() + b * len;
        const float qnb = qn[b], tb = tol[b];
        const std::vector<Id>& ex = exclude[exclude.size() == 1 ? 0 : b];
        for (std::size_t i = 0; i < len; ++i) {
          const std::size_t r = s + i;
          const float rn = norms_[r];
          float key;
          switch (m) {
            case Metric::cosine: key = finish_score(m, sb[i], qnb, rn); break;
            case Metric::dot: key = sb[i]; break;
            default: key = -(qnb * qnb + rn * rn - 2.0f * sb[i]); break;
          }
          if (std::isnan(key)) key = neg_inf;
          const bool full = c.best.size() >= o.k;
          if (full && key < c.best.front() - tb) continue;
          const Id id = static_cast<Id>(r);
          if (!ex.empty() && contains(ex, id)) continue;
          c.rows.emplace_back(key, id);
          if (!full) {
            c.best.push_back(key);
            std::push_heap(c.best.begin(), c.best.end(), std::greater<float>());
          } else if (key > c.best.front()) {
            std::pop_heap(c.best.begin(), c.best.end(), std::greater<float>());
            c.best.back() = key;
            std::push_heap(c.best.begin(), c.best.end(), std::greater<float>());
          }
        }
      }
    });
  }

  // Rescore the surviving candidates exactly (the scan kernel, as search() does) and rank them.
  parallel_for(B, T, [&](std::size_t b0, std::size_t b1, std::size_t) {
    for (std::size_t b = b0; b < b1; ++b) {
      Candidates& c = cand[b];
      const float floor = c.best.size() >= o.k ? c.best.front() - tol[b] : neg_inf;
      const float* q = Q.row(b).data();
      std::vector<detail::Entry> all;
      for (const auto& [key, id] : c.rows) {
        if (key < floor) continue;
        float raw;
        raw_block(q, m, static_cast<std::size_t>(id), 1, &raw);
        const float score = finish_score(m, raw, qn[b], norms_[static_cast<std::size_t>(id)]);
        all.push_back({rank_key(m, score), score, id});
      }
      out[b] = detail::best(std::move(all), o.k);
      c = Candidates{};
    }
  });
  return out;
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
