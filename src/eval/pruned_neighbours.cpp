#include "lumen/eval/pruned_neighbours.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/blas_threads.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::eval {

namespace {
constexpr std::size_t kRank = 32;      // r: the rank of the prefilter
constexpr std::size_t kQueries = 256;  // queries per block: S is (256, n) floats
// Margin under the threshold: covers the rounding of the rank-r product, of P's orthonormality in f32 and of the
// exact scores themselves (all below 1e-5 for d up to tens of thousands); a larger margin only rescores more rows.
constexpr float kMargin = 1e-3f;

struct Ranked {
  float key;
  Id id;
};
bool before(const Ranked& a, const Ranked& b) { return search::ranks_before(a.key, a.id, b.key, b.id); }
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

NeighbourLists pruned_cosine_neighbours(const Matrix& X, std::size_t k, std::size_t threads,
                                        const std::function<void(std::size_t, std::size_t)>& progress,
                                        PruneStats* stats, double max_share) {
  const std::size_t n = X.rows(), d = X.cols();
  if (k == 0) throw UsageError("neighbours: k must be >= 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} words", k, n));
  if (!prunable(X)) throw UsageError("pruned neighbours: every row must be finite and non-zero (f32)");
  const std::size_t T = threads == 0 ? default_threads() : threads;
  const std::size_t r = std::min(kRank, d);
  const ScopedBlasThreads blas(T);

  // U (n, d): unit rows. G = UᵀU (d, d) in double; P (d, r): its r leading eigenvectors.
  std::vector<float> U(n * d);
  parallel_for(n, T, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) {
      const auto row = X.row(i);
      double s = 0;
      for (const float v : row) s += static_cast<double>(v) * v;
      const double inv = 1.0 / std::sqrt(s);
      for (std::size_t j = 0; j < d; ++j) U[i * d + j] = static_cast<float>(row[j] * inv);
    }
  });
  std::vector<float> Gf(d * d, 0.0f);
  cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, static_cast<int>(d), static_cast<int>(n), 1.0f, U.data(),
              static_cast<int>(d), 0.0f, Gf.data(), static_cast<int>(d));
  std::vector<double> G(d * d), w(d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = i; j < d; ++j) G[i * d + j] = G[j * d + i] = Gf[i * d + j];
  if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'U', static_cast<lapack_int>(d), G.data(), static_cast<lapack_int>(d),
                     w.data()) != 0)
    throw InputError("pruned neighbours: the eigen-solver did not converge");
  std::vector<float> P(d * r);  // eigenvalues ascending: the last r columns, largest first
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t c = 0; c < r; ++c) P[i * r + c] = static_cast<float>(G[i * d + (d - 1 - c)]);

  // Z = U P (n, r); ρ_i = |u_i − P z_i|, computed from the difference itself (not 1 − |z|²).
  std::vector<float> Z(n * r), Back(n * d), rho(n);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(r), static_cast<int>(d),
              1.0f, U.data(), static_cast<int>(d), P.data(), static_cast<int>(r), 0.0f, Z.data(), static_cast<int>(r));
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(n), static_cast<int>(d), static_cast<int>(r),
              1.0f, Z.data(), static_cast<int>(r), P.data(), static_cast<int>(r), 0.0f, Back.data(),
              static_cast<int>(d));
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double e = static_cast<double>(U[i * d + j]) - Back[i * d + j];
      s += e * e;
    }
    rho[i] = static_cast<float>(std::sqrt(s)) * (1.0f + 1e-4f);
  }
  Back = {};

  // Exact scores as cosine_neighbours_scan gets them: lumen::search over X itself.
  Table t;
  t.E = Matrix::borrow(X.data(), n, d, X.dtype());
  const search::Searcher searcher(t, 1);
  NeighbourLists nb;
  nb.n = n;
  nb.k = k;
  nb.ids.assign(n * k, 0);
  nb.cosine.assign(n * k, 0.0f);
  const std::size_t m = k + 1;  // the word itself is (almost always) its own nearest: one more, then dropped
  std::atomic<std::size_t> rescored{0};
  std::vector<float> S(kQueries * n);
  for (std::size_t q0 = 0; q0 < n; q0 += kQueries) {
    const std::size_t B = std::min(kQueries, n - q0);
    {
      const ScopedBlasThreads inner(T);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(B), static_cast<int>(n),
                  static_cast<int>(r), 1.0f, Z.data() + q0 * r, static_cast<int>(r), Z.data(), static_cast<int>(r),
                  0.0f, S.data(), static_cast<int>(n));
    }
    parallel_for(B, T, [&](std::size_t b0, std::size_t b1, std::size_t) {
      std::vector<Ranked> guess, cand;
      std::size_t local = 0;
      for (std::size_t b = b0; b < b1; ++b) {
        const std::size_t i = q0 + b;
        const float* s = S.data() + b * n;
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
        // Every row whose bound reaches t, rescored exactly and ranked as lumen::search ranks.
        cand.clear();
        const float cut = threshold - kMargin, ri = rho[i];
        for (std::size_t j = 0; j < n; ++j)
          if (s[j] + ri * rho[j] >= cut) {
            const float score = searcher.score(q, static_cast<Id>(j), search::Metric::cosine);
            cand.push_back({search::rank_key(search::Metric::cosine, score), static_cast<Id>(j)});
          }
        local += cand.size();
        const std::size_t top = std::min(m, cand.size());
        std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(top), cand.end(), before);
        std::size_t out = 0;
        for (std::size_t c = 0; c < top; ++c) {
          if (static_cast<std::size_t>(cand[c].id) == i || out == k) continue;  // itself (or, tied, the last)
          nb.ids[i * k + out] = static_cast<std::int32_t>(cand[c].id);
          nb.cosine[i * k + out] = cand[c].key;
          ++out;
        }
      }
      rescored += local;
    });
    if (q0 == 0 && max_share < 1.0 &&
        static_cast<double>(rescored.load()) > max_share * static_cast<double>(B) * static_cast<double>(n)) {
      if (stats) *stats = {r, static_cast<double>(rescored.load()) / static_cast<double>(B), true};
      return {};
    }
    if (progress) progress(q0 + B, n);
  }
  if (stats) {
    stats->rank = r;
    stats->mean_candidates = static_cast<double>(rescored.load()) / static_cast<double>(n);
  }
  return nb;
}

}  // namespace lumen::eval
