#include "lumen/eval/pruned_neighbours.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::eval {

namespace {
constexpr std::size_t kRank = 32;      // r: the rank of the prefilter
constexpr std::size_t kQueries = 256;  // queries per block: S is (256, n) floats
// Margin under the threshold: covers the rounding of the rank-r product, of P's orthonormality in f32 and of the
// exact scores themselves (all below 1e-5 for d up to tens of thousands); a larger margin only rescores more rows.
constexpr float kMargin = 1e-3f;
// Give up before any product when the r leading directions leave more than this share of the rows' energy: the
// residuals' slack rho_i rho_j then averages over 0.25 of cosine and lets most rows through (the scan is faster).
constexpr double kFlatResidual = 0.25;

struct Ranked {
  float key;
  Id id;
};
bool before(const Ranked& a, const Ranked& b) { return search::ranks_before(a.key, a.id, b.key, b.id); }

// Row i of X scaled to unit length (the norm in double) into out (d).
void unit_row(const Matrix& X, std::size_t i, float* out) {
  const auto row = X.row(i);
  double s = 0;
  for (const float v : row) s += static_cast<double>(v) * v;
  const double inv = 1.0 / std::sqrt(s);
  for (std::size_t j = 0; j < row.size(); ++j) out[j] = static_cast<float>(row[j] * inv);
}

// G = UᵀU (d, d) of unit rows U (rows, d), in double, and its eigenvalues w ascending (G's columns become the
// eigenvectors when `vectors`).
void unit_gram_eigen(const ScopedBlasThreads& guard, const float* U, std::size_t rows, std::size_t d, bool vectors,
                     std::vector<double>& G, std::vector<double>& w) {
  std::vector<float> Gf(d * d, 0.0f);
  blas::ssyrk(guard, blas::Op::T, d, rows, 1.0f, U, d, 0.0f, Gf.data(), d);
  G.assign(d * d, 0.0);
  w.assign(d, 0.0);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = i; j < d; ++j) G[i * d + j] = G[j * d + i] = Gf[i * d + j];
  if (blas::dsyevd(guard, vectors, d, G.data(), w.data()) != 0)
    throw InputError("pruned neighbours: the eigen-solver did not converge");
}

// trace(G) = rows (unit rows): the share the r leading eigenvalues leave is the mean of rho_i^2.
double residual_share(const std::vector<double>& w, std::size_t r, std::size_t rows) {
  double kept = 0;
  for (std::size_t c = 0; c < r; ++c) kept += std::max(0.0, w[w.size() - 1 - c]);
  return std::max(0.0, 1.0 - kept / static_cast<double>(rows));
}
}  // namespace

bool prunable(const Matrix& X) {
  if (X.cols() < 2 || X.dtype() != DType::f32) return false;
  for (std::size_t i = 0; i < X.rows(); ++i) {
    double s = 0;
    for (const float v : X.row(i)) {
      if (!std::isfinite(v)) return false;
      s += static_cast<double>(v) * v;
    }
    if (!(s > 0)) return false;
  }
  return true;
}

NeighbourLists pruned_cosine_neighbours(const Matrix& X, std::size_t k, std::size_t threads, const ProgressFn& progress,
                                        PruneStats* stats, double max_share, const std::vector<std::int32_t>* queries) {
  const std::size_t n = X.rows(), d = X.cols();
  const std::size_t nq = queries ? queries->size() : n;
  auto query_row = [&](std::size_t q) { return queries ? static_cast<std::size_t>((*queries)[q]) : q; };
  if (queries)
    for (std::size_t q = 0; q < nq; ++q)
      if ((*queries)[q] < 0 || static_cast<std::size_t>((*queries)[q]) >= n)
        throw IdError((*queries)[q], q, static_cast<std::int64_t>(n));
  if (k == 0) throw UsageError("neighbours: k must be >= 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} words", k, n));
  if (!prunable(X)) throw UsageError("pruned neighbours: every row must be finite and non-zero (f32)");
  const std::size_t T = threads == 0 ? default_threads() : threads;
  const std::size_t r = std::min(kRank, d);
  const ScopedBlasThreads guard(T);

  // The spectrum decides first whether the bound can prune at all; on a large table from a strided sample of rows,
  // so that a flat table costs a small product before the scan instead of the whole set-up.
  constexpr std::size_t kSpectrumRows = 8192;
  if (max_share < 1.0 && n > 2 * kSpectrumRows) {
    const std::size_t step = n / kSpectrumRows;
    std::vector<float> sample(kSpectrumRows * d);
    for (std::size_t s = 0; s < kSpectrumRows; ++s) unit_row(X, s * step, sample.data() + s * d);
    std::vector<double> G, w;
    unit_gram_eigen(guard, sample.data(), kSpectrumRows, d, false, G, w);
    const double residual = residual_share(w, r, kSpectrumRows);
    if (residual > kFlatResidual) {
      if (stats) *stats = {r, 0.0, true, residual, kSpectrumRows};
      return {};
    }
  }

  // U (n, d): unit rows. G = UᵀU (d, d) in double; P (d, r): its r leading eigenvectors. The large buffers are
  // left uninitialised: every element is written before it is read, and zero-filling them costs page faults twice.
  const auto U = std::make_unique_for_overwrite<float[]>(n * d);
  parallel_for(n, T, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) unit_row(X, i, U.get() + i * d);
  });
  std::vector<double> G, w;
  unit_gram_eigen(guard, U.get(), n, d, true, G, w);
  const double residual = residual_share(w, r, n);
  if (max_share < 1.0 && residual > kFlatResidual) {
    if (stats) *stats = {r, 0.0, true, residual, n};
    return {};
  }
  std::vector<float> P(d * r);  // eigenvalues ascending: the last r columns, largest first
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t c = 0; c < r; ++c) P[i * r + c] = static_cast<float>(G[i * d + (d - 1 - c)]);

  // Z = U P (n, r); ρ_i = |u_i − P z_i|, computed from the difference itself (not 1 − |z|²), a block of rows at
  // a time so that the back-projection P z stays in cache.
  std::vector<float> Z(n * r), rho(n);
  blas::sgemm(guard, blas::Op::N, blas::Op::N, n, r, d, 1.0f, U.get(), d, P.data(), r, 0.0f, Z.data(), r);
  constexpr std::size_t kBackRows = 256;
  const auto Back = std::make_unique_for_overwrite<float[]>(kBackRows * d);
  for (std::size_t i0 = 0; i0 < n; i0 += kBackRows) {
    const std::size_t rows = std::min(kBackRows, n - i0);
    blas::sgemm(guard, blas::Op::N, blas::Op::T, rows, d, r, 1.0f, Z.data() + i0 * r, r, P.data(), r, 0.0f, Back.get(),
                d);
    for (std::size_t i = i0; i < i0 + rows; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < d; ++j) {
        const double e = static_cast<double>(U[i * d + j]) - Back[(i - i0) * d + j];
        s += e * e;
      }
      rho[i] = static_cast<float>(std::sqrt(s)) * (1.0f + 1e-4f);
    }
  }

  // Exact scores as cosine_neighbours_scan gets them: lumen::search over X itself.
  Table t;
  t.E = Matrix::borrow(X.data(), n, d, X.dtype());
  const search::Searcher searcher(t, 1);
  NeighbourLists nb;
  nb.n = nq;
  nb.k = k;
  nb.ids.assign(nq * k, 0);
  nb.cosine.assign(nq * k, 0.0f);
  const std::size_t m = k + 1;  // the word itself is (almost always) its own nearest: one more, then dropped
  std::atomic<std::size_t> rescored{0};
  const std::size_t block = std::min(kQueries, nq);
  const auto S = std::make_unique_for_overwrite<float[]>(block * n);  // (block, n): every entry written by sgemm
  std::vector<float> Zq(block * r), cuts(block);
  for (std::size_t q0 = 0; q0 < nq; q0 += kQueries) {
    const std::size_t B = std::min(kQueries, nq - q0);
    for (std::size_t b = 0; b < B; ++b)
      std::copy_n(Z.data() + query_row(q0 + b) * r, r, Zq.data() + b * r);  // the block's queries, contiguous
    {
      const ScopedBlasThreads inner(T);
      blas::sgemm(inner, blas::Op::N, blas::Op::T, B, n, r, 1.0f, Zq.data(), r, Z.data(), r, 0.0f, S.get(), n);
    }
    // Pass 1: each query's cut, and how many rows its bound lets through. The first block decides, before any
    // rescoring, whether the bound prunes enough to be worth it.
    parallel_for(B, T, [&](std::size_t b0, std::size_t b1, std::size_t) {
      std::vector<Ranked> guess;
      std::size_t local = 0;
      for (std::size_t b = b0; b < b1; ++b) {
        const std::size_t i = query_row(q0 + b);
        const float* s = S.get() + b * n;
        const auto q = X.row(i);
        // The m best by the rank-r product, then the lowest of their exact scores: t <= the true m-th best.
        guess.clear();
        for (std::size_t j = 0; j < n; ++j) {
          const Ranked e{s[j], static_cast<Id>(j)};
          if (guess.size() < m) {
            guess.push_back(e);
            std::push_heap(guess.begin(), guess.end(), before);
          } else if (before(e, guess.front())) {
            std::pop_heap(guess.begin(), guess.end(), before);
            guess.back() = e;
            std::push_heap(guess.begin(), guess.end(), before);
          }
        }
        float threshold = INFINITY;
        for (const auto& g : guess) threshold = std::min(threshold, searcher.score(q, g.id, search::Metric::cosine));
        cuts[b] = threshold - kMargin;
        const float ri = rho[i];
        for (std::size_t j = 0; j < n; ++j) local += s[j] + ri * rho[j] >= cuts[b];
      }
      rescored += local;
    });
    if (q0 == 0 && max_share < 1.0 &&
        static_cast<double>(rescored.load()) > max_share * static_cast<double>(B) * static_cast<double>(n)) {
      if (stats) *stats = {r, static_cast<double>(rescored.load()) / static_cast<double>(B), true, residual, n};
      return {};
    }
    // Pass 2: every row whose bound reaches the cut, rescored exactly and ranked as lumen::search ranks.
    parallel_for(B, T, [&](std::size_t b0, std::size_t b1, std::size_t) {
      std::vector<Ranked> cand;
      for (std::size_t b = b0; b < b1; ++b) {
        const std::size_t i = query_row(q0 + b), out_row = q0 + b;
        const float* s = S.get() + b * n;
        const auto q = X.row(i);
        cand.clear();
        const float cut = cuts[b], ri = rho[i];
        for (std::size_t j = 0; j < n; ++j)
          if (s[j] + ri * rho[j] >= cut) {
            const float score = searcher.score(q, static_cast<Id>(j), search::Metric::cosine);
            cand.push_back({search::rank_key(search::Metric::cosine, score), static_cast<Id>(j)});
          }
        const std::size_t top = std::min(m, cand.size());
        std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(top), cand.end(), before);
        std::size_t out = 0;
        for (std::size_t c = 0; c < top; ++c) {
          if (static_cast<std::size_t>(cand[c].id) == i || out == k) continue;  // itself (or, tied, the last)
          nb.ids[out_row * k + out] = static_cast<std::int32_t>(cand[c].id);
          nb.cosine[out_row * k + out] = cand[c].key;
          ++out;
        }
      }
    });
    if (progress) progress("neighbours", q0 + B, nq);
  }
  if (stats) {
    stats->rank = r;
    stats->residual = residual;
    stats->spectrum_rows = n;
    stats->mean_candidates = nq ? static_cast<double>(rescored.load()) / static_cast<double>(nq) : 0.0;
  }
  return nb;
}

}  // namespace lumen::eval
