#pragma once
// A learned positional table P (context, d), as in GPT-2 (wpe): row t is added to every token at position t.
#include <cstddef>
#include <cstdint>
#include <span>

#include "lumen/core/matrix.hpp"

namespace lumen::nn {

class PositionalEmbedding {
 public:
  PositionalEmbedding(std::size_t context, std::size_t d);

  // Every entry ~ N(0, std^2) from Rng(seed); GPT-2's wpe uses 0.01.
  void init_normal(float std = 0.01f, std::uint64_t seed = 0);

  std::size_t context() const { return P_.rows(); }
  std::size_t d() const { return P_.cols(); }
  const Matrix& P() const { return P_; }
  Matrix& P() { return P_; }
  Matrix& dP();  // (context, d), allocated (zeroed) on first use
  void zero_grad();

  // x (B,T,d) += P[t] for every b. Throws InputError if T > context.
  void add_to(std::span<float> x, std::size_t B, std::size_t T, std::size_t threads = 0) const;
  // dP[t] += sum over b of dX[b,t], b ascending (the same bits for every thread count).
  void backward(std::span<const float> dX, std::size_t B, std::size_t T, std::size_t threads = 0);

 private:
  void check(std::size_t size, std::size_t B, std::size_t T) const;
  Matrix P_, dP_;
};

}  // namespace lumen::nn
