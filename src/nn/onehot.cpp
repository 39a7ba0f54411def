#include "lumen/nn/onehot.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::nn {

namespace {
void check_ids(std::span<const Id> ids, std::size_t V) {
  for (std::size_t p = 0; p < ids.size(); ++p)
    if (ids[p] < 0 || ids[p] >= static_cast<Id>(V)) throw IdError(ids[p], p, static_cast<Id>(V));
}
}  // namespace

Matrix onehot(std::span<const Id> ids, std::size_t V) {
  check_ids(ids, V);
  Matrix X(ids.size(), V, DType::f32);  // zero-filled
  for (std::size_t n = 0; n < ids.size(); ++n) X.row_mut(n)[static_cast<std::size_t>(ids[n])] = 1.0f;
  return X;
}

Matrix embed_via_onehot(const Matrix& E, std::span<const Id> ids, std::size_t threads) {
  const std::size_t V = E.rows(), d = E.cols(), N = ids.size();
  if (V == 0 || d == 0) throw UsageError(fmt::format("embed_via_onehot: empty table ({} x {})", V, d));
  if (V > 0x7fffffffu || d > 0x7fffffffu || N > 0x7fffffffu)
    throw UsageError("embed_via_onehot: dimensions exceed BLAS's int range");
  const Matrix X = onehot(ids, V);  // (N,V)
  Matrix f32;
  const Matrix* Ef = &E;
  if (E.dtype() != DType::f32) {
    f32 = E.to(DType::f32);
    Ef = &f32;
  }
  Matrix Y(N, d, DType::f32);  // (N,d)
  if (N == 0) return Y;
  const ScopedBlasThreads guard(threads);
  // Y (N,d) = X (N,V) . E (V,d). Every sum has one term 1*E[id,j] and V-1 exact zeros: the result is the row.
  blas::sgemm(guard, blas::Op::N, blas::Op::N, N, d, V, 1.0f, X.f32().data(), V, Ef->f32().data(), d, 0.0f,
              Y.f32_mut().data(), d);
  return Y;
}

}  // namespace lumen::nn
