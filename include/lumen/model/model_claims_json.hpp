#pragma once
// The claims about a model as JSON: `lumen claims --json`'s "model" (run_model_claims) and the parts of its
// "gpt_tying" that model_claims.hpp measures (gpt_claims_json).
#include <nlohmann/json.hpp>
#include <vector>

#include "lumen/model/claim_figure.hpp"
#include "lumen/model/depth_claim.hpp"
#include "lumen/model/function_words.hpp"
#include "lumen/model/model_claims.hpp"

namespace lumen::model {

nlohmann::json spread_json(const SeedSpread& s);  // {"mean", "sd", "min", "max", "n"}
// {"values", "mean", "sd", "n", "over", "verdict"}
nlohmann::json claim_figure_json(const ClaimFigure& f);
// {"layers", "probe_words", "folds", "probe_row0", "probe_deeper", "probe_layer", "analogies", and when measured
// "analogy_questions", "analogy_row0", "analogy_deeper", "analogy_layer"}; NaN figures null
nlohmann::json depth_json(const DepthScores& d);
// [{"a", "b", "a_id", "b_id", "input", "head"}]
nlohmann::json pairs_json(const std::vector<PairCosine>& pairs);
// {"model", "V", "d", "layers", "tied", "labels", "depth", "probe_gain", "analogy_gain", "pairs", "pair_gap"}
nlohmann::json model_claims_json(const ModelClaims& c);

}  // namespace lumen::model
