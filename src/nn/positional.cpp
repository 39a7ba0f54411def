#include "lumen/nn/positional.hpp"

#include <cstring>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"

namespace lumen::nn {

PositionalEmbedding::PositionalEmbedding(std::size_t context, std::size_t d) : P_(context, d, DType::f32) {
  if (context == 0 || d == 0)
    throw UsageError(fmt::format("a positional table needs context > 0 and d > 0 (got {} x {})", context, d));
}

void PositionalEmbedding::init_normal(float std, std::uint64_t seed) {
  if (!(std >= 0.0f)) throw UsageError(fmt::format("init std must be >= 0 (got {})", std));
  Rng rng(seed);
  for (float& x : P_.f32_mut()) x = static_cast<float>(rng.normal() * static_cast<double>(std));
}

Matrix& PositionalEmbedding::dP() {
  if (dP_.empty()) dP_ = Matrix(P_.rows(), P_.cols(), DType::f32);
  return dP_;
}

void PositionalEmbedding::zero_grad() {
  if (!dP_.empty()) std::memset(dP_.mutable_data(), 0, dP_.bytes());
}

void PositionalEmbedding::check(std::size_t size, std::size_t B, std::size_t T) const {
  if (T > P_.rows())
    throw InputError(fmt::format("sequence length {} exceeds the positional table's context {}", T, P_.rows()));
  if (size != B * T * P_.cols())
    throw UsageError(fmt::format("x holds {} floats, expected B*T*d = {}*{}*{}", size, B, T, P_.cols()));
}

void PositionalEmbedding::add_to(std::span<float> x, std::size_t B, std::size_t T, std::size_t threads) const {
  check(x.size(), B, T);
  const std::size_t d = P_.cols();
  const float* P = P_.f32().data();
  float* X = x.data();
  parallel_for(B * T, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t p = b; p < e; ++p) kernels::add(X + p * d, P + (p % T) * d, d);
  });
}

void PositionalEmbedding::backward(std::span<const float> dX, std::size_t B, std::size_t T, std::size_t threads) {
  check(dX.size(), B, T);
  const std::size_t d = P_.cols();
  float* dP = this->dP().f32_mut().data();
  const float* G = dX.data();
  // Each thread owns positions [b, e): rows of dP nobody else touches.
  parallel_for(T, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t t = b; t < e; ++t)
      for (std::size_t bb = 0; bb < B; ++bb) kernels::add(dP + t * d, G + (bb * T + t) * d, d);
  });
}

}  // namespace lumen::nn
