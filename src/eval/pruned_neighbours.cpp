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

// The row of X that query q asks about (queries: a list of rows; null: every row in order).
std::size_t pruned_query_row(const std::vector<std::int32_t>* queries, std::size_t q) {
  return queries ? static_cast<std::size_t>((*queries)[q]) : q;
}

void check_pruned_inputs(const Matrix& X, std::size_t k, const std::vector<std::int32_t>* queries) {
  const std::size_t n = X.rows();
  if (queries)
    for (std::size_t q = 0; q < queries->size(); ++q)
      if ((*queries)[q] < 0 || static_cast<std::size_t>((*queries)[q]) >= n)
        throw IdError((*queries)[q], q, static_cast<std::int64_t>(n));
  if (k == 0) throw UsageError("neighbours: k must be >= 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} words", k, n));
  if (!prunable(X)) throw UsageError("pruned neighbours: every row must be finite and non-zero (f32)");
}

// The spectrum decides first whether the bound can prune at all; on a large table from a strided sample of rows,
// so that a flat table costs a small product before the scan instead of the whole set-up. True (stats filled)
// when the sample's spectrum is too flat.
bool sampled_spectrum_is_flat(const ScopedBlasThreads& guard, const Matrix& X, std::size_t r, PruneStats* stats) {
  constexpr std::size_t kSpectrumRows = 8192;
  const std::size_t n = X.rows(), d = X.cols();
  if (n <= 2 * kSpectrumRows) return false;
  const std::size_t step = n / kSpectrumRows;
  std::vector<float> sample(kSpectrumRows * d);
  for (std::size_t s = 0; s < kSpectrumRows; ++s) unit_row(X, s * step, sample.data() + s * d);
  std::vector<double> G, w;
  unit_gram_eigen(guard, sample.data(), kSpectrumRows, d, false, G, w);
  const double residual = residual_share(w, r, kSpectrumRows);
  if (residual <= kFlatResidual) return false;
  if (stats) *stats = {r, 0.0, true, residual, kSpectrumRows};
  return true;
}

// U (n, d): the unit rows of X. Left uninitialised: every element is written before it is read, and zero-filling
// costs page faults twice.
std::unique_ptr<float[]> unit_table_rows(const Matrix& X, std::size_t T) {
  const std::size_t n = X.rows(), d = X.cols();
  auto U = std::make_unique_for_overwrite<float[]>(n * d);
  parallel_for(n, T, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) unit_row(X, i, U.get() + i * d);
  });
  return U;
}

// P (d, r): the r leading eigenvectors of G (d, d). Eigenvalues ascending: the last r columns, largest first.
std::vector<float> leading_directions(const std::vector<double>& G, std::size_t d, std::size_t r) {
  std::vector<float> P(d * r);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t c = 0; c < r; ++c) P[i * r + c] = static_cast<float>(G[i * d + (d - 1 - c)]);
  return P;
}

// The rank-r part of the unit rows and what it leaves: z_i = Pᵀu_i and the residual norm ρ_i.
struct LowRankRows {
  std::size_t r = 0;
  double residual = 0;     // the share of the energy outside the r leading directions (mean ρ²)
  bool flat = false;       // too flat for the bound to prune: Z and rho left empty
  std::vector<float> Z;    // (n, r)
  std::vector<float> rho;  // (n)
};

// Z = U P (n, r); ρ_i = |u_i − P z_i|, computed from the difference itself (not 1 − |z|²), a block of rows at
// a time so that the back-projection P z stays in cache.
void project_unit_rows(const ScopedBlasThreads& guard, const float* U, std::size_t n, std::size_t d,
                       const std::vector<float>& P, LowRankRows& low) {
  const std::size_t r = low.r;
  low.Z.assign(n * r, 0.0f);
  low.rho.assign(n, 0.0f);
  blas::sgemm(guard, blas::Op::N, blas::Op::N, n, r, d, 1.0f, U, d, P.data(), r, 0.0f, low.Z.data(), r);
  constexpr std::size_t kBackRows = 256;
  const auto Back = std::make_unique_for_overwrite<float[]>(kBackRows * d);
  for (std::size_t i0 = 0; i0 < n; i0 += kBackRows) {
    const std::size_t rows = std::min(kBackRows, n - i0);
    blas::sgemm(guard, blas::Op::N, blas::Op::T, rows, d, r, 1.0f, low.Z.data() + i0 * r, r, P.data(), r, 0.0f,
                Back.get(), d);
    for (std::size_t i = i0; i < i0 + rows; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < d; ++j) {
        const double e = static_cast<double>(U[i * d + j]) - Back[(i - i0) * d + j];
        s += e * e;
      }
      low.rho[i] = static_cast<float>(std::sqrt(s)) * (1.0f + 1e-4f);
    }
  }
}

// U (n, d): unit rows. G = UᵀU (d, d) in double; P (d, r): its r leading eigenvectors; then Z and ρ. With
// max_share < 1 a spectrum too flat for the bound stops before the projection (flat, stats filled).
LowRankRows low_rank_rows(const ScopedBlasThreads& guard, const Matrix& X, std::size_t r, std::size_t T,
                          double max_share, PruneStats* stats) {
  const std::size_t n = X.rows(), d = X.cols();
  LowRankRows low;
  low.r = r;
  const auto U = unit_table_rows(X, T);
  std::vector<double> G, w;
  unit_gram_eigen(guard, U.get(), n, d, true, G, w);
  low.residual = residual_share(w, r, n);
  if (max_share < 1.0 && low.residual > kFlatResidual) {
    if (stats) *stats = {r, 0.0, true, low.residual, n};
    low.flat = true;
    return low;
  }
  project_unit_rows(guard, U.get(), n, d, leading_directions(G, d, r), low);
  return low;
}

// The scan over the queries in blocks of kQueries: S = Zq Zᵀ (B, n) by one GEMM, then pass 1 (each query's cut)
// and pass 2 (the rows its bound lets through, rescored exactly) over the block's queries.
class PrunedScan {
 public:
  PrunedScan(const Matrix& X, const std::vector<std::int32_t>* queries, const search::Searcher& searcher,
             const LowRankRows& low, std::size_t k, std::size_t T)
      : X_(X),
        queries_(queries),
        searcher_(searcher),
        Z_(low.Z),
        rho_(low.rho),
        n_(X.rows()),
        r_(low.r),
        k_(k),
        m_(k + 1),
        T_(T) {
    const std::size_t block = std::min(kQueries, queries ? queries->size() : n_);
    S_ = std::make_unique_for_overwrite<float[]>(block * n_);  // (block, n): every entry written by sgemm
    Zq_.resize(block * r_);
    cuts_.resize(block);
  }

  std::size_t rescored() const { return rescored_.load(); }

  // S (B, n): the rank-r products of queries q0 .. q0 + B with every row.
  void product(std::size_t q0, std::size_t B) {
    for (std::size_t b = 0; b < B; ++b)
      std::copy_n(Z_.data() + row(q0 + b) * r_, r_, Zq_.data() + b * r_);  // the block's queries, contiguous
    const ScopedBlasThreads inner(T_);
    blas::sgemm(inner, blas::Op::N, blas::Op::T, B, n_, r_, 1.0f, Zq_.data(), r_, Z_.data(), r_, 0.0f, S_.get(), n_);
  }

  // Pass 1: each query's cut, and how many rows its bound lets through (added to rescored()).
  void cut_block(std::size_t q0, std::size_t B) {
    parallel_for(B, T_, [&](std::size_t b0, std::size_t b1, std::size_t) {
      std::vector<Ranked> guess;
      std::size_t local = 0;
      for (std::size_t b = b0; b < b1; ++b) local += cut_query(b, row(q0 + b), guess);
      rescored_ += local;
    });
  }

  // Pass 2: every row whose bound reaches the cut, rescored exactly and ranked as lumen::search ranks.
  void rescore_block(std::size_t q0, std::size_t B, NeighbourLists& nb) const {
    parallel_for(B, T_, [&](std::size_t b0, std::size_t b1, std::size_t) {
      std::vector<Ranked> cand;
      for (std::size_t b = b0; b < b1; ++b) rescore_query(b, row(q0 + b), q0 + b, cand, nb);
    });
  }

 private:
  std::size_t row(std::size_t q) const { return pruned_query_row(queries_, q); }

  // Query b (row i): the m best by the rank-r product, then the lowest of their exact scores: t <= the true m-th
  // best. Returns how many rows reach the cut.
  std::size_t cut_query(std::size_t b, std::size_t i, std::vector<Ranked>& guess) {
    const float* s = S_.get() + b * n_;
    const auto q = X_.row(i);
    guess.clear();
    for (std::size_t j = 0; j < n_; ++j) {
      const Ranked e{s[j], static_cast<Id>(j)};
      if (guess.size() < m_) {
        guess.push_back(e);
        std::push_heap(guess.begin(), guess.end(), before);
      } else if (before(e, guess.front())) {
        std::pop_heap(guess.begin(), guess.end(), before);
        guess.back() = e;
        std::push_heap(guess.begin(), guess.end(), before);
      }
    }
    float threshold = INFINITY;
    for (const auto& g : guess) threshold = std::min(threshold, searcher_.score(q, g.id, search::Metric::cosine));
    cuts_[b] = threshold - kMargin;
    const float ri = rho_[i];
    std::size_t through = 0;
    for (std::size_t j = 0; j < n_; ++j) through += s[j] + ri * rho_[j] >= cuts_[b];
    return through;
  }

  // Query b (row i): its candidates scored exactly, the best m ranked, itself dropped, k kept in list out_row.
  void rescore_query(std::size_t b, std::size_t i, std::size_t out_row, std::vector<Ranked>& cand,
                     NeighbourLists& nb) const {
    const float* s = S_.get() + b * n_;
    const auto q = X_.row(i);
    cand.clear();
    const float cut = cuts_[b], ri = rho_[i];
    for (std::size_t j = 0; j < n_; ++j)
      if (s[j] + ri * rho_[j] >= cut) {
        const float score = searcher_.score(q, static_cast<Id>(j), search::Metric::cosine);
        cand.push_back({search::rank_key(search::Metric::cosine, score), static_cast<Id>(j)});
      }
    if (cand.empty()) return;  // nothing passed the cut: the list stays as it was
    const std::size_t top = std::min(m_, cand.size());
    std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(top), cand.end(), before);
    std::size_t out = 0;
    for (std::size_t c = 0; c < top; ++c) {
      if (static_cast<std::size_t>(cand[c].id) == i || out == k_) continue;  // itself (or, tied, the last)
      nb.ids[out_row * k_ + out] = static_cast<std::int32_t>(cand[c].id);
      nb.cosine[out_row * k_ + out] = cand[c].key;
      ++out;
    }
  }

  const Matrix& X_;
  const std::vector<std::int32_t>* queries_;
  const search::Searcher& searcher_;
  const std::vector<float>& Z_;
  const std::vector<float>& rho_;
  std::size_t n_, r_, k_;
  std::size_t m_;  // the word itself is (almost always) its own nearest: one more, then dropped
  std::size_t T_;
  std::unique_ptr<float[]> S_;
  std::vector<float> Zq_, cuts_;
  std::atomic<std::size_t> rescored_{0};
};

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
  check_pruned_inputs(X, k, queries);
  const std::size_t T = threads == 0 ? default_threads() : threads;
  const std::size_t r = std::min(kRank, d);
  const ScopedBlasThreads guard(T);
  if (max_share < 1.0 && sampled_spectrum_is_flat(guard, X, r, stats)) return {};

  const LowRankRows low = low_rank_rows(guard, X, r, T, max_share, stats);
  if (low.flat) return {};

  // Exact scores as cosine_neighbours_scan gets them: lumen::search over X itself.
  Table t;
  t.E = Matrix::borrow(X.data(), n, d, X.dtype());
  const search::Searcher searcher(t, 1);
  NeighbourLists nb{nq, k, std::vector<std::int32_t>(nq * k, 0), std::vector<float>(nq * k, 0.0f)};
  PrunedScan scan(X, queries, searcher, low, k, T);
  for (std::size_t q0 = 0; q0 < nq; q0 += kQueries) {
    const std::size_t B = std::min(kQueries, nq - q0);
    scan.product(q0, B);
    scan.cut_block(q0, B);
    // The first block decides, before any rescoring, whether the bound prunes enough to be worth it.
    const auto seen = static_cast<double>(scan.rescored());
    if (q0 == 0 && max_share < 1.0 && seen > max_share * static_cast<double>(B) * static_cast<double>(n)) {
      if (stats) *stats = {r, seen / static_cast<double>(B), true, low.residual, n};
      return {};
    }
    scan.rescore_block(q0, B, nb);
    if (progress) progress("neighbours", q0 + B, nq);
  }
  if (stats) {  // gave_up left as the caller set it
    stats->rank = r;
    stats->residual = low.residual;
    stats->spectrum_rows = n;
    stats->mean_candidates = nq ? static_cast<double>(scan.rescored()) / static_cast<double>(nq) : 0.0;
  }
  return nb;
}

}  // namespace lumen::eval
