// The tying claim on a transformer (gpt_claims.hpp): one token stream, then a tied and an untied GptTrainer per
// seed, and the verdict from the perplexities' means and seed spreads.
#include "lumen/model/gpt_claims.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "lumen/core/error.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/model/gpt_tokenizer.hpp"
#include "lumen/model/token_stream.hpp"
#include "lumen/train/claims.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::model {

namespace {

void check_options(const GptClaimsOptions& o) {
  if (o.seeds < 1 || o.seeds > 1000)
    throw OptionError("seeds", fmt::format("{{option}} must be in 1..1000 (got {})", o.seeds));
  if (!(o.rare_fraction > 0 && o.rare_fraction <= 1))
    throw OptionError("rare_fraction", fmt::format("{{option}} must be in (0, 1] (got {})", o.rare_fraction));
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

std::string_view verdict_name(TyingVerdict v) {
  switch (v) {
    case TyingVerdict::tied_lower: return "tied_lower";
    case TyingVerdict::untied_lower: return "untied_lower";
    case TyingVerdict::within_spread: return "within_spread";
    case TyingVerdict::single_seed: return "single_seed";
    case TyingVerdict::not_measured: return "not_measured";
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

  // The depth claim's label set and benchmark, read before any training.
  std::optional<eval::AnalogySet> analogies;
  std::optional<eval::LabelSet> labels;
  if (!o.analogies.empty()) {
    analogies = eval::read_analogy_set(o.analogies);
    labels = eval::load_label_set(o.labels, o.analogies);
  }

  GptClaimsResult r;
  r.corpus = o.corpus;
  r.depth = labels.has_value();
  if (labels) r.labels = labels->name;
  RareTokens rare;
  std::vector<bool> in_training;  // tokens that occur in the training part
  std::vector<DepthScores> depth;
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
      if (rare.mask.empty()) {
        const std::span<const std::int32_t> part(tokens.data(), trainer.train_tokens());
        rare = rare_tokens(part, r.V, o.rare_fraction);
        in_training.assign(r.V, false);
        for (const std::int32_t t : part) in_training[static_cast<std::size_t>(t)] = true;
      }
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
      const GptSubsetLoss rl = trainer.heldout_loss_where(rare.mask);
      m.rare_loss.push_back(rl.loss);
      r.rare_targets = rl.targets;
      r.heldout_positions = rl.positions;
      if (!tie)
        r.pairs.push_back(input_head_cosines(trainer.weights(), r.V, trainer.shape().d, *tokenizer,
                                             function_word_pairs(),
                                             [&](std::int32_t t) { return in_training[static_cast<std::size_t>(t)]; }));
      if (labels) {
        const Transformer model({.shape = trainer.shape(), .family = Family::gpt2, .model_type = "gpt2"},
                                trainer.weights());
        m.depth.push_back(depth_scores(model, *tokenizer, *labels, &*analogies, o.train.threads));
        depth.push_back(m.depth.back());
      }
    }
    if (r.tied.heldout_perplexity.back() < r.untied.heldout_perplexity.back()) ++r.tied_lower_seeds;
  }
  r.tied.perplexity = seed_spread(r.tied.heldout_perplexity);
  r.untied.perplexity = seed_spread(r.untied.heldout_perplexity);
  r.verdict = tying_verdict(r.tied.perplexity, r.untied.perplexity);
  r.rare_fraction = o.rare_fraction;
  r.rare_tokens = rare.rare;
  r.seen_tokens = rare.seen;
  r.rare_max_count = rare.max_count;
  r.tied.rare = seed_spread(r.tied.rare_loss);
  r.untied.rare = seed_spread(r.untied.rare_loss);
  r.rare_verdict = r.rare_targets > 0 ? tying_verdict(r.tied.rare, r.untied.rare) : TyingVerdict::not_measured;
  r.pair_gap = pair_gap(r.pairs);
  if (r.depth) {
    r.probe_gain = probe_gain(depth);
    r.analogy_gain = analogy_gain(depth);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace lumen::model
