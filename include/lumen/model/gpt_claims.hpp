#pragma once
// The chapter's tying claim on a transformer ("tying the output head to E tends to help small models"), measured:
// for each of several seeds a tied and an untied small GPT-2 (GptTrainer) are trained with the same options, the
// same steps and the same windows on the same corpus split, and their held-out perplexities are compared against
// the spread between seeds. Nothing is asserted in advance: the verdict is computed from the numbers.
//
// Seed k gives both models the same initial values for every tensor they share (the untied head is drawn last)
// and the same training windows, so the per-seed difference is a paired one.
//
// The same models then measure three more claims (model_claims.hpp): held-out loss on rare target tokens, tied
// against untied ("every row gets gradient as input and as target, so rare tokens learn faster"); function-word
// pairs in the untied model's E against its head; and probe and analogy scores at row 0 against the best deeper
// layer, over every model.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/model/claim_figure.hpp"
#include "lumen/model/gpt_trainer.hpp"
#include "lumen/model/model_claims.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/train/claims.hpp"

namespace lumen::model {

// The small defaults: 2 blocks, d_model 64, 4 heads, context 64, 400 steps of 8 windows, the corpus's 2,000 most
// frequent words as tokens, one held-out evaluation at the end over 16 x 8 windows. `tie` is ignored (both run).
GptTrainOptions gpt_claims_train_defaults();

struct GptClaimsOptions {
  std::string corpus;  // a text file (required)
  std::size_t seeds = 3;
  std::uint64_t first_seed = 1;  // seeds first_seed, first_seed + 1, ...
  GptTrainOptions train = gpt_claims_train_defaults();
  double rare_fraction = 0.1;  // rare targets: the bottom decile of the training part's tokens by count
  // The depth claim: the label set (a built-in name or a word<TAB>label file) and the analogy benchmark it is made
  // from and scored on. analogies empty: not measured.
  std::string labels = "plural";
  std::string analogies;
};

enum class TyingVerdict {
  tied_lower,     // tied's mean + sd lies below untied's mean - sd: tied lower beyond the seed spread
  untied_lower,   // the other way round
  within_spread,  // the two mean +- sd intervals overlap: no difference beyond the seed spread
  single_seed,    // one seed: no spread to judge a difference against
  not_measured,   // nothing to compare (no held-out target was rare)
};
// "tied_lower", "untied_lower", "within_spread", "single_seed", "not_measured"
std::string_view verdict_name(TyingVerdict v);
// Held-out perplexity (lower is better) of the tied and the untied models over the seeds.
TyingVerdict tying_verdict(const SeedSpread& tied, const SeedSpread& untied);

struct GptClaimsModel {
  nn::ParamCount params;                   // nn::count_params of the model's shape (what `lumen params` counts)
  std::vector<double> heldout_perplexity;  // one per seed
  std::vector<double> heldout_loss;        // nats, one per seed
  std::vector<double> seconds;             // training time, one per seed
  SeedSpread perplexity;                   // over the seeds
  std::vector<double> rare_loss;           // held-out loss (nats) on rare targets, one per seed
  SeedSpread rare;                         // over the seeds
  std::vector<DepthScores> depth;          // one per seed (when measured)
};

struct GptClaimsResult {
  std::string corpus;
  GptTrainOptions train;  // as run (tie: the tied model's)
  std::size_t V = 0;      // tokens of the vocabulary (the words, the 256 bytes, <|endoftext|>)
  std::uint64_t train_tokens = 0, heldout_tokens = 0;
  std::vector<std::uint64_t> seeds;
  GptClaimsModel tied, untied;
  std::size_t tied_lower_seeds = 0;  // seeds where the tied model's perplexity is the lower
  TyingVerdict verdict = TyingVerdict::single_seed;
  // Rare targets (token_stream.hpp's rare_tokens of the training part).
  double rare_fraction = 0;
  std::size_t rare_tokens = 0, seen_tokens = 0;           // rare tokens, of the distinct tokens of the training part
  std::uint64_t rare_max_count = 0;                       // a rare token occurs at most this often there
  std::uint64_t rare_targets = 0, heldout_positions = 0;  // held-out positions scored, and those with a rare target
  TyingVerdict rare_verdict = TyingVerdict::single_seed;  // lower rare-target loss (tying_verdict)
  // Function-word pairs that occur in the training part, in each seed's untied model.
  std::vector<std::vector<PairCosine>> pairs;  // (seeds)
  ClaimFigure pair_gap;                        // input - head cosine, mean over pairs, over seeds
  // Depth: deeper layer minus row 0 over every model (each seed's tied, then untied).
  bool depth = false;
  std::string labels;  // the label set's name
  ClaimFigure probe_gain, analogy_gain;
  double seconds = 0;  // everything: the vocabulary, tokenizing, every model
};

// Throws OptionError in the trainer's option names (layers, d_model, ..., max_words), "seeds" or "rare_fraction"
// before any work, InputError for a missing corpus (OptionText naming {corpus} and {skip_gpt}), InputError for a
// corpus too short for a window of context + 1 tokens in both its parts, IoError if it (or the analogy benchmark)
// cannot be read.
GptClaimsResult run_gpt_claims(const GptClaimsOptions& options,
                               const std::function<void(const train::ClaimsProgress&)>& progress = {});

}  // namespace lumen::model
