// The tying claim on a transformer (gpt_claims.hpp): one token stream, then a tied and an untied GptTrainer per
// seed, and the verdict from the perplexities' means and seed spreads.
#include "lumen/model/gpt_claims.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <memory>

#include "lumen/core/error.hpp"
#include "lumen/model/gpt_tokenizer.hpp"
#include "lumen/model/token_stream.hpp"
#include "lumen/train/claims.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::model {

namespace {

void check_options(const GptClaimsOptions& o) {
  if (o.seeds < 1 || o.seeds > 1000)
    throw OptionError("seeds", fmt::format("{{option}} must be in 1..1000 (got {})", o.seeds));
  check_gpt_train_options(o.train);
}

}  // namespace

GptTrainOptions gpt_claims_train_defaults() {
  return {.layers = 2,
          .d_model = 64,
          .heads = 4,
          .context = 64,
          .steps = 400,
          .batch = 8,
          .eval_every = 0,
          .eval_batches = 16,
          .tokenizer = "words",
          .max_words = 2000};
}

SeedSpread seed_spread(std::span<const double> v) {
  SeedSpread s;
  s.n = v.size();
  if (v.empty()) return s;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

std::string_view verdict_name(TyingVerdict v) {
  switch (v) {
    case TyingVerdict::tied_lower: return "tied_lower";
    case TyingVerdict::untied_lower: return "untied_lower";
    case TyingVerdict::within_spread: return "within_spread";
    case TyingVerdict::single_seed: return "single_seed";
  }
  return "single_seed";
}

TyingVerdict tying_verdict(const SeedSpread& tied, const SeedSpread& untied) {
  if (tied.n < 2 || untied.n < 2) return TyingVerdict::single_seed;
  if (tied.mean + tied.sd < untied.mean - untied.sd) return TyingVerdict::tied_lower;
  if (untied.mean + untied.sd < tied.mean - tied.sd) return TyingVerdict::untied_lower;
  return TyingVerdict::within_spread;
}

GptClaimsResult run_gpt_claims(const GptClaimsOptions& o,
                               const std::function<void(const train::ClaimsProgress&)>& progress) {
  check_options(o);
  if (!std::filesystem::exists(o.corpus))
    throw InputError(OptionText{
        fmt::format("{}: the corpus for the tied/untied GPTs is missing (give {{corpus}}, or {{skip_gpt}})", o.corpus),
        {"corpus", "skip_gpt"}});
  const auto start = std::chrono::steady_clock::now();
  const auto corpus = train::Corpus::open({o.corpus});
  const auto tokenizer =
      training_tokenizer(corpus, o.train, [&](const std::string&, std::uint64_t done, std::uint64_t total) {
        if (progress) progress({.stage = "vocabulary", .done = done, .total = total});
      }).tokenizer;
  const std::vector<std::int32_t> tokens =
      encode_corpus(corpus, *tokenizer, [&](const std::string&, std::uint64_t done, std::uint64_t n) {
        if (progress) progress({.stage = "tokenize", .done = done, .total = n});
      });

  GptClaimsResult r;
  r.corpus = o.corpus;
  r.train = o.train;
  r.train.tie = true;
  r.V = tokenizer->size();
  for (std::size_t k = 0; k < o.seeds; ++k) {
    const std::uint64_t seed = o.first_seed + k;
    r.seeds.push_back(seed);
    for (const bool tie : {true, false}) {
      GptTrainOptions to = o.train;
      to.tie = tie;
      to.seed = seed;
      GptTrainer trainer(tokens, r.V, to);
      const std::string_view stage = tie ? "gpt tied" : "gpt untied";
      const auto t0 = std::chrono::steady_clock::now();
      trainer.train({}, [&](const GptStep& s) {
        if (progress)
          progress({.stage = stage,
                    .done = s.step,
                    .total = s.steps,
                    .unit = "steps",
                    .loss = s.loss,
                    .seed_index = k,
                    .seeds = o.seeds});
      });
      const GptEval e = trainer.history().empty() ? trainer.evaluate() : trainer.history().back();
      GptClaimsModel& m = tie ? r.tied : r.untied;
      m.params = nn::count_params(trainer.shape());
      m.heldout_perplexity.push_back(e.heldout_perplexity);
      m.heldout_loss.push_back(e.heldout_loss);
      m.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      r.train_tokens = trainer.train_tokens();
      r.heldout_tokens = trainer.heldout_tokens();
    }
    if (r.tied.heldout_perplexity.back() < r.untied.heldout_perplexity.back()) ++r.tied_lower_seeds;
  }
  r.tied.perplexity = seed_spread(r.tied.heldout_perplexity);
  r.untied.perplexity = seed_spread(r.untied.heldout_perplexity);
  r.verdict = tying_verdict(r.tied.perplexity, r.untied.perplexity);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace lumen::model
