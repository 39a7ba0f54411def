#pragma once
// Running a model on text: the next-token distribution, sampling a continuation, and perplexity over a file.
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/model/transformer.hpp"

namespace lumen::model {

struct TokenChoice {
  std::int32_t id = 0;
  float logit = 0;
  double prob = 0;  // softmax over all V logits
};

// The k most probable of logits (V), most probable first (ties: lower id first). k is clamped to V.
std::vector<TokenChoice> top_tokens(const float* logits, std::size_t V, std::size_t k);

struct SampleOptions {
  std::size_t tokens = 20;   // how many to generate
  double temperature = 1.0;  // 0: greedy (the most probable token every time)
  std::size_t top_k = 0;     // 0: all V
  std::uint64_t seed = 0;    // same seed, same tokens (lumen::Rng)
  std::size_t threads = 0;
  const std::atomic<bool>* stop = nullptr;     // set (Ctrl-C): stop before the next token, keeping those made
  std::function<void(std::int32_t)> on_token;  // each token as it is made (to stream it)
};

// Appends opt.tokens sampled tokens to `ids` (the prompt) and returns the new ones (fewer when stopped). When the
// sequence reaches the context, the model sees the last `context` tokens (a sliding window). Throws InputError for an
// empty prompt. progress(done, total) after each token. No KV cache: each step runs the window again (O(T^2) per
// token).
std::vector<std::int32_t> generate(const Transformer& model, std::vector<std::int32_t> ids, const SampleOptions& opt,
                                   const ProgressFn& progress = {});

struct Perplexity {
  std::size_t tokens = 0;   // tokens predicted (all but the first)
  std::size_t windows = 0;  // forward passes
  std::size_t context = 0, stride = 0;
  double nll = 0;         // mean negative log-likelihood per token (nats)
  double perplexity = 0;  // exp(nll)
};

// Perplexity of ids (n >= 2). Text longer than the context is scored with a sliding window: windows of `context`
// tokens starting every `stride` tokens (0: context / 2), each token predicted once, in the first window that
// reaches it, so every prediction after the first window sees at least context - stride tokens before it.
// Throws InputError for n < 2, UsageError for stride >= context (when the text needs more than one window).
Perplexity perplexity(const Transformer& model, const std::vector<std::int32_t>& ids, std::size_t stride = 0,
                      std::size_t threads = 0, const ProgressFn& progress = {});

}  // namespace lumen::model
