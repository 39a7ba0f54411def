#pragma once
// Figure 3's numbers as JSON: one schema, written by `lumen drift --json` and answered by the explorer's /api/drift.
#include <nlohmann/json.hpp>

#include "lumen/model/drift.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// {"token", "contexts": [{"text", "ids", "position", "id"}] (2),
//  "layers": [{"layer", "cosine", "baseline" (project::anisotropy_json of the layer's pooled states), "adjusted",
//  "contexts": [{"nearest": [{"token", "display", "id", "cosine"}], "lens": [{"token", "display", "id", "logit",
//  "prob"}]}] (2)}] (N+1),
//  "layer0": {"learned_positions", "position_term_norm", "token_row_norm", "same_token"},
//  "pca_variance_ratio": [2], "pca_xy": [[[x, y] per layer] per context]}
// Tokens are the tokenizer's labels ("␣bank"); "display" spells them as every other result's rows do.
nlohmann::json drift_json(const Drift& d, const text::Tokenizer& tokenizer);

}  // namespace lumen::model
