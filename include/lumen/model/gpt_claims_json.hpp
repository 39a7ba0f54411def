#pragma once
// The tying claim on a transformer as JSON: `lumen claims --json`'s "gpt_tying" (fields listed in docs/train.md).
#include <nlohmann/json.hpp>

#include "lumen/model/gpt_claims.hpp"

namespace lumen::model {

// {"corpus", "tokenizer", "V", "layers", "d_model", "heads", "context", "steps", "batch", "lr", "train_tokens",
// "heldout_tokens", "seeds", "spread", "tied", "untied", "tied_lower_seeds", "verdict", "seconds"}; tied and
// untied each {"params", "embedding_params", "output_head_params", "heldout_perplexity" (per seed),
// "heldout_loss" (per seed), "seconds" (per seed), "perplexity" {"mean", "sd", "min", "max", "n"}}.
nlohmann::json gpt_claims_json(const GptClaimsResult& r);

}  // namespace lumen::model
