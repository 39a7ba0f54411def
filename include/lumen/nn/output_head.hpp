#pragma once
// The output projection: logits (N,V) = h (N,d) . W^T, W (V,d). Tied: W is the Embedding's own E (the same
// storage), and the output-path gradient is added into the same dE the input path fills, so dE ends up the
// sum of both. Untied: the head owns its own W and dW.
#include <cstddef>
#include <cstdint>
#include <span>

#include "lumen/core/matrix.hpp"
#include "lumen/nn/embedding.hpp"

namespace lumen::nn {

class OutputHead {
 public:
  // Shares E and dE with `embedding`, which must outlive the head.
  static OutputHead tied(Embedding& embedding);
  // Owns W (V,d), zero until init_normal.
  static OutputHead untied(std::size_t V, std::size_t d);

  bool is_tied() const { return embedding_ != nullptr; }
  std::size_t V() const { return W().rows(); }
  std::size_t d() const { return W().cols(); }

  // Untied only (a tied head's weights are the embedding's: initialise those). Throws UsageError if tied.
  void init_normal(float std = 0.02f, std::uint64_t seed = 1);

  const Matrix& W() const;
  Matrix& W();
  Matrix& dW();  // tied: the embedding's dE
  void zero_grad();

  // logits (N,V) = h (N,d) . W^T, through cblas_sgemm. `threads` sets OpenBLAS's pool (0 = default).
  void forward(std::span<const float> h, std::size_t N, std::span<float> logits, std::size_t threads = 0) const;
  Matrix forward(const Matrix& h, std::size_t threads = 0) const;  // h (N,d) -> logits (N,V)

  // Given dlogits (N,V): dh (N,d) = dlogits . W (overwritten), and dW += dlogits^T . h.
  // dh is computed before dW changes, so with tying it uses the E the forward pass saw.
  void backward(std::span<const float> h, std::span<const float> dlogits, std::size_t N, std::span<float> dh,
                std::size_t threads = 0);

 private:
  OutputHead() = default;
  void check(std::size_t h_size, std::size_t N, std::size_t logits_size) const;
  Embedding* embedding_ = nullptr;  // tied
  Matrix W_, dW_;                   // untied
};

}  // namespace lumen::nn
