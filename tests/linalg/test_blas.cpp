#include <gtest/gtest.h>

#include <cblas.h>

#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/linalg/blas_threads.hpp"

using namespace lumen;

TEST(ScopedBlasThreads, SetsTheCountAndRestoresWhatWasThere) {
  openblas_set_num_threads(1);
  {
    const ScopedBlasThreads guard(2);
    EXPECT_EQ(guard.threads(), 2u);
    EXPECT_EQ(openblas_get_num_threads(), 2);
    {
      const ScopedBlasThreads inner(1);
      EXPECT_EQ(openblas_get_num_threads(), 1);
    }
    EXPECT_EQ(openblas_get_num_threads(), 2);
  }
  EXPECT_EQ(openblas_get_num_threads(), 1);
}

TEST(ScopedBlasThreads, ZeroMeansLumensDefault) {
  const ScopedBlasThreads guard(0);
  EXPECT_EQ(guard.threads(), default_threads());
}

namespace test_blas {

// C = op(A) op(B) written out in double: the reference each wrapper's row-major, transposed reading must match.
std::vector<double> product(const std::vector<float>& A, bool ta, const std::vector<float>& B, bool tb, std::size_t M,
                            std::size_t N, std::size_t K) {
  std::vector<double> C(M * N, 0.0);
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j)
      for (std::size_t k = 0; k < K; ++k)
        C[i * N + j] += double(ta ? A[k * M + i] : A[i * K + k]) * double(tb ? B[j * K + k] : B[k * N + j]);
  return C;
}

std::vector<float> ramp(std::size_t n, float step) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = step * static_cast<float>((i * 7) % 11) - 0.5f;
  return v;
}

TEST(Blas, SgemmReadsEachTransposeRowMajor) {
  const std::size_t M = 5, N = 3, K = 4;
  const auto A = ramp(M * K, 0.25f), B = ramp(K * N, 0.125f);
  const ScopedBlasThreads guard(1);
  for (const bool ta : {false, true})
    for (const bool tb : {false, true}) {
      std::vector<float> C(M * N, 1.0f);  // beta = 0.5 keeps half of it
      blas::sgemm(guard, ta ? blas::Op::T : blas::Op::N, tb ? blas::Op::T : blas::Op::N, M, N, K, 2.0f, A.data(),
                  ta ? M : K, B.data(), tb ? K : N, 0.5f, C.data(), N);
      const auto want = product(A, ta, B, tb, M, N, K);
      for (std::size_t i = 0; i < M * N; ++i) EXPECT_NEAR(C[i], 2.0 * want[i] + 0.5, 1e-5) << ta << tb << i;
    }
}

TEST(Blas, SyrkFillsTheUpperTriangleOfTheGram) {
  const std::size_t n = 3, k = 4;  // A (k,n): Op::T gives AᵀA (n,n)
  const auto A = ramp(k * n, 0.5f);
  const ScopedBlasThreads guard(1);
  std::vector<float> C(n * n, -7.0f);
  blas::ssyrk(guard, blas::Op::T, n, k, 1.0f, A.data(), n, 0.0f, C.data(), n);
  const auto want = product(A, true, A, false, n, n, k);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (j >= i) EXPECT_NEAR(C[i * n + j], want[i * n + j], 1e-5);
      else EXPECT_EQ(C[i * n + j], -7.0f);  // the lower triangle untouched
    }
}

TEST(Blas, VectorCallsMatchTheirSums) {
  const ScopedBlasThreads guard(1);
  const std::vector<float> x{1, 2, 3}, y{4, -5, 6};
  EXPECT_EQ(blas::sdot(guard, 3, x.data(), y.data()), 12.0f);
  const std::vector<double> z{3, 4};
  EXPECT_EQ(blas::dnrm2(guard, 2, z.data()), 5.0);
  const std::vector<float> A{1, 2, 3, 4, 5, 6};  // (2,3)
  std::vector<float> out(2, 1.0f);
  blas::sgemv(guard, 2, 3, 1.0f, A.data(), 3, x.data(), 1.0f, out.data());
  EXPECT_EQ(out, (std::vector<float>{15, 33}));
  std::vector<float> t(3, 1.0f);  // A^T (3,2) . (1, 2)
  blas::sgemv(guard, 2, 3, 1.0f, A.data(), 3, x.data(), 1.0f, t.data(), blas::Op::T);
  EXPECT_EQ(t, (std::vector<float>{10, 13, 16}));
}

TEST(Blas, EigenSolversAgreeAndTheLargestComeFromDsyevr) {
  const ScopedBlasThreads guard(1);
  const std::vector<double> S{4, 1, 0, 1, 3, 1, 0, 1, 2};  // symmetric (3,3)
  std::vector<double> A1 = S, A2 = S, w1(3), w2(3);
  ASSERT_EQ(blas::dsyev(guard, true, 3, A1.data(), w1.data()), 0);
  ASSERT_EQ(blas::dsyevd(guard, false, 3, A2.data(), w2.data()), 0);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(w1[i], w2[i], 1e-12);
  EXPECT_LT(w1[0], w1[1]);
  std::vector<double> A3 = S, w3(2), Z(3 * 2);
  std::size_t found = 0;
  ASSERT_EQ(blas::dsyevr_largest(guard, 3, A3.data(), 2, w3.data(), Z.data(), found), 0);
  ASSERT_EQ(found, 2u);
  EXPECT_NEAR(w3[0], w1[1], 1e-12);
  EXPECT_NEAR(w3[1], w1[2], 1e-12);
  for (std::size_t r = 0; r < 3; ++r) {  // S z = w z for the largest
    double Sz = 0;
    for (std::size_t c = 0; c < 3; ++c) Sz += S[r * 3 + c] * Z[c * 2 + 1];
    EXPECT_NEAR(Sz, w3[1] * Z[r * 2 + 1], 1e-12);
  }
}

TEST(Blas, LuPivotsAndSvdReconstruct) {
  const ScopedBlasThreads guard(1);
  std::vector<double> A{0, 1, 1, 0};  // a swap: LU must pivot, det = -1
  std::vector<std::size_t> piv;
  ASSERT_EQ(blas::dgetrf(guard, 2, A.data(), piv), 0);
  EXPECT_EQ(piv, (std::vector<std::size_t>{2, 2}));
  const std::vector<double> M{2, 1, -1, 3};
  std::vector<double> work = M, s(2), U(4), Vt(4);
  ASSERT_EQ(blas::dgesvd(guard, 2, work.data(), s.data(), U.data(), Vt.data()), 0);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      EXPECT_NEAR(U[i * 2 + 0] * s[0] * Vt[0 * 2 + j] + U[i * 2 + 1] * s[1] * Vt[1 * 2 + j], M[i * 2 + j], 1e-12);
}

TEST(Blas, RefusesSizesPastBlasInt) {
  const ScopedBlasThreads guard(1);
  const std::size_t huge = std::size_t{1} << 31;
  EXPECT_THROW(blas::sgemm(guard, blas::Op::N, blas::Op::N, huge, 1, 1, 1.0f, nullptr, 1, nullptr, 1, 0.0f, nullptr, 1),
               Error);
  EXPECT_THROW(blas::sdot(guard, huge, nullptr, nullptr), Error);
}

}  // namespace test_blas
