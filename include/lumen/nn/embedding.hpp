#pragma once
// The embedding layer: a table E (V,d) whose row i is the vector of token i. forward(ids) is a pure row
// gather; backward(ids, dY) scatters the gradient back into dE. Semantics follow PyTorch's nn.Embedding
// where they overlap (padding_idx, max_norm), plus the original transformer's optional sqrt(d) scale.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "lumen/core/matrix.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::nn {

struct EmbeddingOptions {
  // This row starts at zero, is never updated by backward, and its output is whatever the row holds.
  // A negative value counts from the end (V + padding_idx), as in PyTorch.
  std::optional<Id> padding_idx;
  // Rows looked up by forward whose L2 norm exceeds max_norm are rescaled in place to
  // max_norm / (norm + 1e-7) times themselves (PyTorch's embedding_renorm_), before the gather.
  std::optional<float> max_norm;
  // Multiply the output (and so the gradient) by sqrt(d) (Vaswani et al. 2017, section 3.4).
  bool scale_sqrt_d = false;
};

class Embedding {
 public:
  // E (V,d) zero-filled; call init_normal before use.
  Embedding(std::size_t V, std::size_t d, EmbeddingOptions options = {});
  // Wraps an existing table E (V,d); a non-f32 table is converted to f32. A borrowed E is only read
  // (forward without max_norm works; anything that writes E throws).
  explicit Embedding(Matrix E, EmbeddingOptions options = {});

  // Every entry ~ N(0, std^2) from Rng(seed), row by row; the padding row is then zeroed.
  void init_normal(float std = 0.02f, std::uint64_t seed = 0);

  std::size_t V() const { return E_.rows(); }
  std::size_t d() const { return E_.cols(); }
  const EmbeddingOptions& options() const { return options_; }
  float output_scale() const { return scale_; }  // 1 or sqrt(d)

  const Matrix& E() const { return E_; }
  Matrix& E() { return E_; }
  // The gradient table dE (V,d), allocated (zeroed) on first use.
  Matrix& dE();
  bool has_grad() const { return !dE_.empty(); }
  void zero_grad();

  // Throws IdError naming the first id outside [0, V) and its position. Writes nothing.
  void check_ids(std::span<const Id> ids) const;

  // ids (B,T) -> out (B,T,d): out[b,t] = E[ids[b,t]] (times sqrt(d) if scaled). `out` holds B*T*d floats.
  // Not const: max_norm renormalises looked-up rows of E in place (nothing is touched if an id is bad).
  void forward(std::span<const Id> ids, std::size_t B, std::size_t T, std::span<float> out, std::size_t threads = 0);
  // The same, returning out as a (B*T, d) matrix.
  Matrix forward(std::span<const Id> ids, std::size_t B, std::size_t T, std::size_t threads = 0);

  // dE[ids[b,t]] += dY[b,t] (times sqrt(d) if scaled); dY (B,T,d) holds ids.size()*d floats. The padding row
  // gets nothing. Bit-identical for every thread count: each row of dE is owned by one thread, which adds
  // that row's positions in ascending order (no atomics on floats).
  void backward(std::span<const Id> ids, std::span<const float> dY, std::size_t threads = 0);

 private:
  void renorm(std::span<const Id> ids);
  Matrix E_, dE_;
  EmbeddingOptions options_;
  float scale_ = 1.0f;
};

}  // namespace lumen::nn
