#pragma once
// The one door to OpenBLAS and LAPACKE: nothing else in lumen includes cblas.h or lapacke.h
// (scripts/check_rules.py holds it). Each call takes the ScopedBlasThreads it runs under, so its result depends on
// the thread count asked for, never on what an earlier call left behind. Row-major throughout; sizes are
// std::size_t, narrowed to BLAS's int here and refused (Error) past INT_MAX.
#include <cstddef>
#include <vector>

#include "lumen/linalg/blas_threads.hpp"

namespace lumen::blas {

enum class Op : bool { N, T };  // the matrix as stored, or transposed

// C (M,N) = alpha op(A) (M,K) . op(B) (K,N) + beta C
void sgemm(const ScopedBlasThreads& guard, Op ta, Op tb, std::size_t M, std::size_t N, std::size_t K, float alpha,
           const float* A, std::size_t lda, const float* B, std::size_t ldb, float beta, float* C, std::size_t ldc);
void dgemm(const ScopedBlasThreads& guard, Op ta, Op tb, std::size_t M, std::size_t N, std::size_t K, double alpha,
           const double* A, std::size_t lda, const double* B, std::size_t ldb, double beta, double* C, std::size_t ldc);

// y (M) = alpha A (M,N) . x (N) + beta y; with Op::T, y (N) = alpha A^T . x (M) + beta y
void sgemv(const ScopedBlasThreads& guard, std::size_t M, std::size_t N, float alpha, const float* A, std::size_t lda,
           const float* x, float beta, float* y, Op t = Op::N);

// The upper triangle of C (n,n) = alpha X Xᵀ + beta C, where X (n,k) is A for Op::N and Aᵀ for Op::T (A (k,n),
// so Op::T gives AᵀA, a Gram matrix of columns). The lower triangle is left as it was.
void ssyrk(const ScopedBlasThreads& guard, Op t, std::size_t n, std::size_t k, float alpha, const float* A,
           std::size_t lda, float beta, float* C, std::size_t ldc);
void dsyrk(const ScopedBlasThreads& guard, Op t, std::size_t n, std::size_t k, double alpha, const double* A,
           std::size_t lda, double beta, double* C, std::size_t ldc);

float sdot(const ScopedBlasThreads& guard, std::size_t n, const float* x, const float* y);
double dnrm2(const ScopedBlasThreads& guard, std::size_t n, const double* x);

// LAPACK. Each returns LAPACK's info: 0 on success, > 0 when the algorithm did not converge.
// Symmetric eigenproblems read the upper triangle of A (n,n): eigenvalues ascending in w (n); with `vectors`,
// A is overwritten by the eigenvectors, one per column.
int dsyev(const ScopedBlasThreads& guard, bool vectors, std::size_t n, double* A, double* w);
int dsyevd(const ScopedBlasThreads& guard, bool vectors, std::size_t n, double* A, double* w);  // divide and conquer
// The k largest eigenpairs only (MRRR): ascending in w (k), vectors in the columns of Z (n,k); `found` is how many.
int dsyevr_largest(const ScopedBlasThreads& guard, std::size_t n, double* A, std::size_t k, double* w, double* Z,
                   std::size_t& found);
// A (n,n) = P L U in place; pivots (n) are LAPACK's, 1-based: row i was swapped with row pivots[i].
int dgetrf(const ScopedBlasThreads& guard, std::size_t n, double* A, std::vector<std::size_t>& pivots);
// A (n,n) = U diag(s) Vt, all of U (n,n) and Vt (n,n); A is destroyed.
int dgesvd(const ScopedBlasThreads& guard, std::size_t n, double* A, double* s, double* U, double* Vt);

}  // namespace lumen::blas
