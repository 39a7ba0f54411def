#include "lumen/eval/cross_gram.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::eval {

namespace {
constexpr std::size_t kBlock = 2048;  // rows converted to double at a time

// Column means of M (n, d) in double.
std::vector<double> column_means(const Matrix& M) {
  const std::size_t n = M.rows(), d = M.cols();
  std::vector<double> mean(d, 0.0);
  std::vector<float> row(d);
  for (std::size_t i = 0; i < n; ++i) {
    M.row_f32(i, row.data());
    for (std::size_t j = 0; j < d; ++j) mean[j] += row[j];
  }
  for (auto& m : mean) m /= static_cast<double>(n);
  return mean;
}

// Rows [begin, begin + rows) of M minus the means, as doubles into out (rows, d).
void centred_block(const Matrix& M, const std::vector<double>& mean, std::size_t begin, std::size_t rows,
                   std::vector<double>& out) {
  const std::size_t d = M.cols();
  std::vector<float> row(d);
  for (std::size_t r = 0; r < rows; ++r) {
    M.row_f32(begin + r, row.data());
    for (std::size_t j = 0; j < d; ++j) out[r * d + j] = static_cast<double>(row[j]) - mean[j];
  }
}

// Fills the lower triangle of a symmetric (d, d) matrix whose upper triangle syrk wrote.
void mirror(std::vector<double>& s, std::size_t d) {
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < i; ++j) s[i * d + j] = s[j * d + i];
}
}  // namespace

CrossGram cross_gram(const Matrix& A, const Matrix& B, std::size_t threads) {
  if (A.rows() != B.rows()) throw InputError(fmt::format("cross products: {} rows against {}", A.rows(), B.rows()));
  if (A.rows() == 0) throw InputError("cross products: no rows");
  if (A.cols() == 0 || B.cols() == 0) throw InputError("cross products: a table with no columns");
  const ScopedBlasThreads guard(threads);
  CrossGram g;
  g.n = A.rows();
  g.da = A.cols();
  g.db = B.cols();
  g.mean_a = column_means(A);
  g.mean_b = column_means(B);
  g.aa.assign(g.da * g.da, 0.0);
  g.bb.assign(g.db * g.db, 0.0);
  g.ab.assign(g.da * g.db, 0.0);
  std::vector<double> x(kBlock * g.da), y(kBlock * g.db);
  const std::size_t da = g.da, db = g.db;
  for (std::size_t begin = 0; begin < g.n; begin += kBlock) {
    const std::size_t rows = std::min(kBlock, g.n - begin);
    centred_block(A, g.mean_a, begin, rows, x);
    centred_block(B, g.mean_b, begin, rows, y);
    // XᵀX += xᵀx, YᵀY += yᵀy (upper triangles), XᵀY += xᵀy.
    blas::dsyrk(guard, blas::Op::T, da, rows, 1.0, x.data(), da, 1.0, g.aa.data(), da);
    blas::dsyrk(guard, blas::Op::T, db, rows, 1.0, y.data(), db, 1.0, g.bb.data(), db);
    blas::dgemm(guard, blas::Op::T, blas::Op::N, da, db, rows, 1.0, x.data(), da, y.data(), db, 1.0, g.ab.data(), db);
  }
  mirror(g.aa, g.da);
  mirror(g.bb, g.db);
  return g;
}

}  // namespace lumen::eval
