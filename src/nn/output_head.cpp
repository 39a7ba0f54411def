#include "lumen/nn/output_head.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/linear.hpp"

namespace lumen::nn {

OutputHead OutputHead::tied(Embedding& embedding) {
  OutputHead h;
  h.embedding_ = &embedding;
  return h;
}

OutputHead OutputHead::untied(std::size_t V, std::size_t d) {
  if (V == 0 || d == 0) throw UsageError(fmt::format("an output head needs V > 0 and d > 0 (got {} x {})", V, d));
  OutputHead h;
  h.W_ = Matrix(V, d, DType::f32);
  return h;
}

void OutputHead::init_normal(float std, std::uint64_t seed) {
  if (is_tied()) throw UsageError("a tied output head has no weights of its own: initialise the embedding");
  if (!(std >= 0.0f)) throw UsageError(fmt::format("init std must be >= 0 (got {})", std));
  Rng rng(seed);
  for (float& x : W_.f32_mut()) x = static_cast<float>(rng.normal() * static_cast<double>(std));
}

const Matrix& OutputHead::W() const { return is_tied() ? embedding_->E() : W_; }
Matrix& OutputHead::W() { return is_tied() ? embedding_->E() : W_; }

Matrix& OutputHead::dW() {
  if (is_tied()) return embedding_->dE();
  if (dW_.empty()) dW_ = Matrix(W_.rows(), W_.cols(), DType::f32);
  return dW_;
}

void OutputHead::zero_grad() {
  if (is_tied()) embedding_->zero_grad();
  else if (!dW_.empty()) std::memset(dW_.mutable_data(), 0, dW_.bytes());
}

void OutputHead::check(std::size_t h_size, std::size_t N, std::size_t logits_size) const {
  const std::size_t V = this->V(), d = this->d();
  if (h_size != N * d) throw UsageError(fmt::format("h holds {} floats, expected N*d = {}*{}", h_size, N, d));
  if (logits_size != N * V)
    throw UsageError(fmt::format("logits hold {} floats, expected N*V = {}*{}", logits_size, N, V));
  if (V > 0x7fffffffu || d > 0x7fffffffu || N > 0x7fffffffu)
    throw UsageError("output head: dimensions exceed BLAS's int range");
}

void OutputHead::forward(std::span<const float> h, std::size_t N, std::span<float> logits, std::size_t threads) const {
  check(h.size(), N, logits.size());
  if (N == 0) return;
  // logits (N,V) = h (N,d) . W^T (d,V)
  matmul_forward(logits.data(), h.data(), W().f32().data(), nullptr, N, d(), V(), threads);
}

Matrix OutputHead::forward(const Matrix& h, std::size_t threads) const {
  if (h.cols() != d()) throw UsageError(fmt::format("h has {} columns, the head expects d = {}", h.cols(), d()));
  Matrix logits(h.rows(), V(), DType::f32);
  forward(h.f32(), h.rows(), logits.f32_mut(), threads);
  return logits;
}

void OutputHead::backward(std::span<const float> h, std::span<const float> dlogits, std::size_t N, std::span<float> dh,
                          std::size_t threads) {
  check(h.size(), N, dlogits.size());
  if (dh.size() != h.size()) throw UsageError(fmt::format("dh holds {} floats, expected {}", dh.size(), h.size()));
  if (N == 0) return;
  // dh (N,d) = dlogits (N,V) . W (V,d), overwritten; dW (V,d) += dlogits^T (V,N) . h (N,d)
  std::fill(dh.begin(), dh.end(), 0.0f);
  matmul_backward(dh.data(), dW().f32_mut().data(), nullptr, dlogits.data(), h.data(), W().f32().data(), N, d(), V(),
                  threads);
}

}  // namespace lumen::nn
