#pragma once
// What a loaded model is, as JSON: the explorer's /api/model.
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/model/transformer.hpp"

namespace lumen::model {

// {"source", "model_type", "family", "V", "d", "layers", "heads", "kv_heads", "ffn", "context", "positional",
//  "norm", "mlp", "tied", "parameters"}; parameters as `lumen params` counts them for this shape.
nlohmann::json model_json(const Transformer& model, const std::string& source);

}  // namespace lumen::model
