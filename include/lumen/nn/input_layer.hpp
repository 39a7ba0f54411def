#pragma once
// GPT-2's input layer: x[b,t] = wte[ids[b,t]] + wpe[t], the token embedding plus the learned position.
#include <cstddef>
#include <cstdint>
#include <span>

#include "lumen/core/vocab.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/positional.hpp"

namespace lumen::nn {

class InputLayer {
 public:
  // wte (V,d), wpe (context,d).
  InputLayer(std::size_t V, std::size_t d, std::size_t context, EmbeddingOptions token_options = {});

  // GPT-2's initialisation: wte ~ N(0, 0.02^2), wpe ~ N(0, 0.01^2); the two tables get different seeds.
  void init(std::uint64_t seed = 0, float token_std = 0.02f, float position_std = 0.01f);

  Embedding& token() { return token_; }
  const Embedding& token() const { return token_; }
  PositionalEmbedding& position() { return position_; }
  const PositionalEmbedding& position() const { return position_; }

  // ids (B,T) -> x (B,T,d). Throws IdError for a bad id, InputError if T > context; nothing is written then.
  void forward(std::span<const Id> ids, std::size_t B, std::size_t T, std::span<float> x, std::size_t threads = 0);
  // dX (B,T,d): accumulates into dE (wte) and dP (wpe).
  void backward(std::span<const Id> ids, std::span<const float> dX, std::size_t B, std::size_t T,
                std::size_t threads = 0);
  void zero_grad();

 private:
  Embedding token_;
  PositionalEmbedding position_;
};

}  // namespace lumen::nn
