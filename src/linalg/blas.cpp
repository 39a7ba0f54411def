#include "lumen/linalg/blas.hpp"

#include <cblas.h>
#include <fmt/format.h>
#include <lapacke.h>

#include <climits>

#include "lumen/core/error.hpp"

namespace lumen::blas {

namespace {

// BLAS's int: a size past it would wrap, so it is refused.
int narrow(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw Error(fmt::format("BLAS: {} = {} is past the {} that OpenBLAS's int dimensions hold", what, n, INT_MAX));
  return static_cast<int>(n);
}

lapack_int lnarrow(std::size_t n, const char* what) { return static_cast<lapack_int>(narrow(n, what)); }

CBLAS_TRANSPOSE trans(Op t) { return t == Op::T ? CblasTrans : CblasNoTrans; }

}  // namespace

void sgemm(const ScopedBlasThreads& /*guard*/, Op ta, Op tb, std::size_t M, std::size_t N, std::size_t K, float alpha,
           const float* A, std::size_t lda, const float* B, std::size_t ldb, float beta, float* C, std::size_t ldc) {
  cblas_sgemm(CblasRowMajor, trans(ta), trans(tb), narrow(M, "M"), narrow(N, "N"), narrow(K, "K"), alpha, A,
              narrow(lda, "lda"), B, narrow(ldb, "ldb"), beta, C, narrow(ldc, "ldc"));
}

void dgemm(const ScopedBlasThreads& /*guard*/, Op ta, Op tb, std::size_t M, std::size_t N, std::size_t K, double alpha,
           const double* A, std::size_t lda, const double* B, std::size_t ldb, double beta, double* C,
           std::size_t ldc) {
  cblas_dgemm(CblasRowMajor, trans(ta), trans(tb), narrow(M, "M"), narrow(N, "N"), narrow(K, "K"), alpha, A,
              narrow(lda, "lda"), B, narrow(ldb, "ldb"), beta, C, narrow(ldc, "ldc"));
}

void sgemv(const ScopedBlasThreads& /*guard*/, std::size_t M, std::size_t N, float alpha, const float* A,
           std::size_t lda, const float* x, float beta, float* y, Op t) {
  cblas_sgemv(CblasRowMajor, trans(t), narrow(M, "M"), narrow(N, "N"), alpha, A, narrow(lda, "lda"), x, 1, beta, y, 1);
}

void ssyrk(const ScopedBlasThreads& /*guard*/, Op t, std::size_t n, std::size_t k, float alpha, const float* A,
           std::size_t lda, float beta, float* C, std::size_t ldc) {
  cblas_ssyrk(CblasRowMajor, CblasUpper, trans(t), narrow(n, "n"), narrow(k, "k"), alpha, A, narrow(lda, "lda"), beta,
              C, narrow(ldc, "ldc"));
}

void dsyrk(const ScopedBlasThreads& /*guard*/, Op t, std::size_t n, std::size_t k, double alpha, const double* A,
           std::size_t lda, double beta, double* C, std::size_t ldc) {
  cblas_dsyrk(CblasRowMajor, CblasUpper, trans(t), narrow(n, "n"), narrow(k, "k"), alpha, A, narrow(lda, "lda"), beta,
              C, narrow(ldc, "ldc"));
}

float sdot(const ScopedBlasThreads& /*guard*/, std::size_t n, const float* x, const float* y) {
  return cblas_sdot(narrow(n, "n"), x, 1, y, 1);
}

double dnrm2(const ScopedBlasThreads& /*guard*/, std::size_t n, const double* x) {
  return cblas_dnrm2(narrow(n, "n"), x, 1);
}

int dsyev(const ScopedBlasThreads& /*guard*/, bool vectors, std::size_t n, double* A, double* w) {
  const lapack_int ln = lnarrow(n, "n");
  return LAPACKE_dsyev(LAPACK_ROW_MAJOR, vectors ? 'V' : 'N', 'U', ln, A, ln, w);
}

int dsyevd(const ScopedBlasThreads& /*guard*/, bool vectors, std::size_t n, double* A, double* w) {
  const lapack_int ln = lnarrow(n, "n");
  return LAPACKE_dsyevd(LAPACK_ROW_MAJOR, vectors ? 'V' : 'N', 'U', ln, A, ln, w);
}

int dsyevr_largest(const ScopedBlasThreads& /*guard*/, std::size_t n, double* A, std::size_t k, double* w, double* Z,
                   std::size_t& found) {
  const lapack_int ln = lnarrow(n, "n"), lk = lnarrow(k, "k");
  std::vector<lapack_int> support(2 * std::max<std::size_t>(k, 1));
  lapack_int m = 0;
  const lapack_int info = LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'V', 'I', 'U', ln, A, ln, 0.0, 0.0, ln - lk + 1, ln, 0.0, &m,
                                         w, Z, lk, support.data());
  found = m < 0 ? 0 : static_cast<std::size_t>(m);
  return info;
}

int dgetrf(const ScopedBlasThreads& /*guard*/, std::size_t n, double* A, std::vector<std::size_t>& pivots) {
  const lapack_int ln = lnarrow(n, "n");
  std::vector<lapack_int> piv(n);
  const lapack_int info = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, ln, ln, A, ln, piv.data());
  pivots.assign(piv.begin(), piv.end());
  return info;
}

int dgesvd(const ScopedBlasThreads& /*guard*/, std::size_t n, double* A, double* s, double* U, double* Vt) {
  const lapack_int ln = lnarrow(n, "n");
  std::vector<double> superb(n > 1 ? n - 1 : 1);
  return LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'A', 'A', ln, ln, A, ln, s, U, ln, Vt, ln, superb.data());
}

}  // namespace lumen::blas
