#include "lumen/project/pca.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::project {

namespace {

constexpr std::size_t kBlock = 2048;  // rows centred at a time: (kBlock, d) stays in cache-friendly reach

std::size_t count_rows(const Matrix& E, std::span<const Id> rows) {
  if (rows.empty()) return E.rows();
  for (std::size_t p = 0; p < rows.size(); ++p)
    if (rows[p] < 0 || static_cast<std::size_t>(rows[p]) >= E.rows())
      throw IdError(rows[p], p, static_cast<std::int64_t>(E.rows()));
  return rows.size();
}

std::size_t row_of(std::span<const Id> rows, std::size_t i) {
  return rows.empty() ? i : static_cast<std::size_t>(rows[i]);
}

// Rows [b, e) of the selection, minus `mean` (if given), into out ((e-b), d).
void gather(const Matrix& E, std::span<const Id> rows, std::size_t b, std::size_t e, const float* mean, float* out,
            std::size_t threads) {
  const std::size_t d = E.cols();
  parallel_for(e - b, threads, [&](std::size_t lo, std::size_t hi, std::size_t) {
    for (std::size_t i = lo; i < hi; ++i) {
      float* o = out + i * d;
      E.row_f32(row_of(rows, b + i), o);
      if (mean)
        for (std::size_t c = 0; c < d; ++c) o[c] -= mean[c];
    }
  });
}

// The top k eigenpairs of the symmetric (m, m) matrix A (upper triangle used), largest first.
// vectors: (m, k) column j the j-th eigenvector.
void top_eigen(const ScopedBlasThreads& guard, std::vector<double>& A, std::size_t m, std::size_t k,
               std::vector<double>& values, std::vector<double>& vectors) {
  std::vector<double> w(m), z(m * k);
  std::size_t found = 0;
  const int info = blas::dsyevr_largest(guard, m, A.data(), k, w.data(), z.data(), found);
  if (info != 0 || found != k)
    throw Error(
        fmt::format("PCA: the eigensolver (LAPACK's dsyevr) failed (info {}, {} of {} eigenpairs)", info, found, k));
  // dsyevr returns ascending eigenvalues: reverse to largest first.
  values.assign(k, 0.0);
  vectors.assign(m * k, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    values[j] = w[k - 1 - j];
    for (std::size_t r = 0; r < m; ++r) vectors[r * k + j] = z[r * k + (k - 1 - j)];
  }
}

// Column means and sums of squares of the selection, in double (f32 sums of 50k rows would lose digits):
// straight from E when it is f32 and whole, else through a buffer of converted rows.
struct ColumnMoments {
  std::vector<double> mean, sumsq;  // (d)
};
ColumnMoments column_moments(const Matrix& E, std::span<const Id> rows, std::size_t N, std::size_t threads) {
  const std::size_t d = E.cols();
  const bool whole_f32 = rows.empty() && E.dtype() == DType::f32;
  ColumnMoments m{std::vector<double>(d, 0.0), std::vector<double>(d, 0.0)};
  std::vector<std::vector<double>> part(threads, std::vector<double>(2 * d, 0.0));
  std::vector<float> buf(whole_f32 ? 0 : std::min(N, kBlock) * d);
  for (std::size_t b = 0; b < N; b += kBlock) {
    const std::size_t e = std::min(N, b + kBlock);
    const float* x = whole_f32 ? E.f32().data() + b * d : buf.data();
    if (!whole_f32) gather(E, rows, b, e, nullptr, buf.data(), threads);
    parallel_for(e - b, threads, [&](std::size_t lo, std::size_t hi, std::size_t t) {
      double* s1 = part[t].data();
      double* s2 = s1 + d;
      for (std::size_t i = lo; i < hi; ++i)
        for (std::size_t c = 0; c < d; ++c) {
          const double v = x[i * d + c];
          s1[c] += v;
          s2[c] += v * v;
        }
    });
  }
  for (const auto& p : part)
    for (std::size_t c = 0; c < d; ++c) {
      m.mean[c] += p[c];
      m.sumsq[c] += p[d + c];
    }
  for (std::size_t c = 0; c < d; ++c) m.mean[c] /= static_cast<double>(N);
  return m;
}

// Centring costs a copy of every row. When no column's mean is more than 4 standard deviations from zero, the
// uncentred X^T X - N mu mu^T loses at most about one digit of f32 to cancellation, and BLAS reads E in place.
bool covariance_in_place(const ColumnMoments& m, std::size_t N) {
  for (std::size_t c = 0; c < m.mean.size(); ++c) {
    const double var = std::max(0.0, m.sumsq[c] / static_cast<double>(N) - m.mean[c] * m.mean[c]);
    if (m.mean[c] * m.mean[c] > 16.0 * var) return false;
  }
  return true;
}

// What both routes to the spectrum give beside the components (written into (k, d), unit rows, any sign): the top
// k eigenvalues of the covariance, largest first, and its trace.
struct Spectrum {
  std::vector<double> values;
  double total = 0.0;
};

// N >= d: covariance C (d, d) = Xc^T Xc / (N-1), in place (minus N mu mu^T) or block by block of centred rows.
Spectrum covariance_spectrum(const ScopedBlasThreads& guard, const Matrix& E, std::span<const Id> rows, std::size_t N,
                             std::size_t k, const ColumnMoments& m, bool in_place, const std::vector<float>& mean_f32,
                             std::span<float> comp, std::size_t threads) {
  const std::size_t d = E.cols();
  std::vector<float> C(d * d, 0.0f);
  if (in_place) {
    blas::ssyrk(guard, blas::Op::T, d, N, 1.0f, E.f32().data(), d, 0.0f, C.data(), d);
  } else {
    std::vector<float> Xc(std::min(N, kBlock) * d);
    for (std::size_t b = 0; b < N; b += kBlock) {
      const std::size_t e = std::min(N, b + kBlock);
      gather(E, rows, b, e, mean_f32.data(), Xc.data(), threads);
      blas::ssyrk(guard, blas::Op::T, d, e - b, 1.0f, Xc.data(), d, b == 0 ? 0.0f : 1.0f, C.data(), d);
    }
  }
  const double scale = 1.0 / static_cast<double>(N - 1);
  const double shift = in_place ? static_cast<double>(N) : 0.0;
  std::vector<double> A(d * d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = i; j < d; ++j)
      A[i * d + j] = (static_cast<double>(C[i * d + j]) - shift * m.mean[i] * m.mean[j]) * scale;
  Spectrum sp;
  for (std::size_t i = 0; i < d; ++i) sp.total += A[i * d + i];
  std::vector<double> vecs;
  top_eigen(guard, A, d, k, sp.values, vecs);
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t c = 0; c < d; ++c) comp[j * d + c] = static_cast<float>(vecs[c * k + j]);
  return sp;
}

// Fewer rows than dimensions: the Gram matrix G (N, N) = Xc Xc^T has the same non-zero spectrum, and component
// j = Xc^T u_j / |Xc^T u_j|.
Spectrum gram_spectrum(const ScopedBlasThreads& guard, const Matrix& E, std::span<const Id> rows, std::size_t N,
                       std::size_t k, const std::vector<float>& mean_f32, std::span<float> comp, std::size_t threads) {
  const std::size_t d = E.cols();
  std::vector<float> Xc(N * d), G(N * N, 0.0f);
  gather(E, rows, 0, N, mean_f32.data(), Xc.data(), threads);
  blas::ssyrk(guard, blas::Op::N, N, d, 1.0f, Xc.data(), d, 0.0f, G.data(), N);
  const double scale = 1.0 / static_cast<double>(N - 1);
  std::vector<double> A(N * N);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i; j < N; ++j) A[i * N + j] = static_cast<double>(G[i * N + j]) * scale;
  Spectrum sp;
  for (std::size_t i = 0; i < N; ++i) sp.total += A[i * N + i];
  std::vector<double> vecs;
  top_eigen(guard, A, N, k, sp.values, vecs);
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<double> v(d, 0.0);
    for (std::size_t i = 0; i < N; ++i) {
      const double u = vecs[i * k + j];
      for (std::size_t c = 0; c < d; ++c) v[c] += u * Xc[i * d + c];
    }
    double norm = 0.0;
    for (double x : v) norm += x * x;
    norm = std::sqrt(norm);
    for (std::size_t c = 0; c < d; ++c) comp[j * d + c] = norm > 0 ? static_cast<float>(v[c] / norm) : 0.0f;
  }
  return sp;
}

// A deterministic sign: the largest-magnitude coordinate of each component (k, d) is positive.
void fix_signs(std::span<float> comp, std::size_t k, std::size_t d) {
  for (std::size_t j = 0; j < k; ++j) {
    float* v = comp.data() + j * d;
    std::size_t arg = 0;
    for (std::size_t c = 1; c < d; ++c)
      if (std::fabs(v[c]) > std::fabs(v[arg])) arg = c;
    if (v[arg] < 0)
      for (std::size_t c = 0; c < d; ++c) v[c] = -v[c];
  }
}

}  // namespace

Pca fit_pca(const Matrix& E, std::span<const Id> rows, std::size_t k, std::size_t threads) {
  const std::size_t N = count_rows(E, rows), d = E.cols();
  if (k == 0) throw UsageError("PCA: the number of components must be at least 1");
  if (N < 2) throw InputError(fmt::format("PCA needs at least 2 rows (got {})", N));
  if (k > d || k > N) throw UsageError(fmt::format("PCA: {} components asked of {} rows of dimension {}", k, N, d));
  const ScopedBlasThreads guard(threads);
  threads = guard.threads();

  Pca pca;
  const ColumnMoments m = column_moments(E, rows, N, threads);
  pca.mean.resize(d);
  for (std::size_t c = 0; c < d; ++c) pca.mean[c] = static_cast<float>(m.mean[c]);
  const bool in_place = rows.empty() && E.dtype() == DType::f32 && covariance_in_place(m, N);
  pca.components = Matrix(k, d);
  auto comp = pca.components.f32_mut();
  const Spectrum sp = N >= d ? covariance_spectrum(guard, E, rows, N, k, m, in_place, pca.mean, comp, threads)
                             : gram_spectrum(guard, E, rows, N, k, pca.mean, comp, threads);
  fix_signs(comp, k, d);
  pca.total_variance = sp.total;
  pca.variance.resize(k);
  pca.variance_ratio.resize(k);
  for (std::size_t j = 0; j < k; ++j) {
    pca.variance[j] = std::max(0.0, sp.values[j]);
    pca.variance_ratio[j] = sp.total > 0 ? pca.variance[j] / sp.total : 0.0;
  }
  return pca;
}

Matrix pca_transform(const Pca& pca, const Matrix& E, std::span<const Id> rows, std::size_t threads) {
  const std::size_t N = count_rows(E, rows), d = E.cols(), k = pca.k();
  if (d != pca.d()) throw InputError(fmt::format("PCA: the table has dimension {}, the components {}", d, pca.d()));
  const ScopedBlasThreads guard(threads);
  threads = guard.threads();
  Matrix Y(N, k);
  float* y = Y.f32_mut().data();
  const float* W = pca.components.f32().data();
  if (rows.empty() && E.dtype() == DType::f32) {
    // Y = E W^T - mu W^T: BLAS reads E in place, the constant comes off each column.
    blas::sgemm(guard, blas::Op::N, blas::Op::T, N, k, d, 1.0f, E.f32().data(), d, W, d, 0.0f, y, k);
    std::vector<float> off(k);
    for (std::size_t j = 0; j < k; ++j) {
      double o = 0;
      for (std::size_t c = 0; c < d; ++c) o += static_cast<double>(pca.mean[c]) * W[j * d + c];
      off[j] = static_cast<float>(o);
    }
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < k; ++j) y[i * k + j] -= off[j];
    return Y;
  }
  std::vector<float> Xc(std::min(N, kBlock) * d);
  for (std::size_t b = 0; b < N; b += kBlock) {
    const std::size_t e = std::min(N, b + kBlock);
    gather(E, rows, b, e, pca.mean.data(), Xc.data(), threads);
    // Y[b:e] (n, k) = Xc (n, d) W^T (d, k)
    blas::sgemm(guard, blas::Op::N, blas::Op::T, e - b, k, d, 1.0f, Xc.data(), d, W, d, 0.0f, y + b * k, k);
  }
  return Y;
}

}  // namespace lumen::project
