#pragma once
// A decoder-only transformer (GPT-2 or Llama) that runs forward: ids (T) -> logits (T, V), optionally keeping
// the residual stream after every block (the drift of a token's vector, lumen drift).
#include <cstdint>
#include <string>
#include <vector>

#include "lumen/model/config.hpp"
#include "lumen/model/weights.hpp"

namespace lumen::model {

struct ForwardOptions {
  bool last_only = false;    // logits of the last position only (next token): (1, V)
  bool no_logits = false;    // stop after the final norm (the hidden states are all that is wanted)
  bool keep_layers = false;  // ForwardResult::layers
  std::size_t threads = 0;   // 0: lumen::default_threads()
};

struct ForwardResult {
  std::size_t T = 0, V = 0;
  std::vector<float> logits;               // (T, V), or (1, V) with last_only
  std::vector<std::vector<float>> layers;  // keep_layers: N+1 of (T, C): layer 0 the input layer (E row plus
                                           // position), layer i the residual stream after block i (before the
                                           // final norm)
};

class Transformer {
 public:
  Transformer(Config config, Weights weights);  // throws InputError if the weights do not fit the config

  const Config& config() const { return config_; }
  const nn::ModelShape& shape() const { return config_.shape; }
  const Weights& weights() const { return weights_; }
  bool tied() const { return weights_.lm_head.empty(); }

  // ids (T) with 1 <= T <= context (learned positions; RoPE: any T). Throws IdError for an id outside [0, V) and
  // InputError for T == 0 or T > context.
  ForwardResult forward(const std::vector<std::int32_t>& ids, const ForwardOptions& options = {}) const;

  // The head on hidden states already normalised: logits (n, V) = h (n, C) . W^T, W = E (tied) or lm_head.
  void head(float* logits, const float* h, std::size_t n, std::size_t threads = 0) const;
  // The final norm on n rows of the residual stream: out (n, C).
  void final_norm(float* out, const float* residual, std::size_t n) const;

  // Floating-point operations of one forward over T tokens (multiply-add = 2), with the head for `head_rows`.
  double flops(std::size_t T, std::size_t head_rows) const;

 private:
  Config config_;
  Weights weights_;
};

}  // namespace lumen::model
