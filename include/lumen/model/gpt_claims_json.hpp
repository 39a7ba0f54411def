#pragma once
// The tying claim on a transformer as JSON: `lumen claims --json`'s "gpt_tying" (fields listed in docs/train.md).
#include <nlohmann/json.hpp>

#include "lumen/model/gpt_claims.hpp"

namespace lumen::model {

// {"corpus", "tokenizer", "V", "layers", "d_model", "heads", "context", "steps", "batch", "lr", "train_tokens",
// "heldout_tokens", "seeds", "spread", "tied", "untied", "tied_lower_seeds", "verdict", "rare_targets",
// "function_words", "depth", "seconds"}; tied and untied each {"params", "embedding_params", "output_head_params",
// "heldout_perplexity" (per seed), "heldout_loss" (per seed), "seconds" (per seed), "perplexity" {"mean", "sd",
// "min", "max", "n"}, "rare_loss" (per seed), "rare" (its spread)}; "rare_targets" {"fraction", "tokens",
// "seen_tokens", "max_count", "heldout_targets", "heldout_positions", "verdict"}; "function_words" {"pairs" (per
// seed, model_claims_json's pairs_json), "gap" (claim_figure_json)}; "depth" null or {"labels", "tied", "untied"
// (per seed, depth_json), "probe_gain", "analogy_gain"}.
nlohmann::json gpt_claims_json(const GptClaimsResult& r);

}  // namespace lumen::model
