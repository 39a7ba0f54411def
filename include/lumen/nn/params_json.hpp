#pragma once
// The parameter calculator's results as JSON: one schema, written by `lumen params --json` and returned (as a dict)
// by Python's lumen.params.
#include <nlohmann/json.hpp>

#include "lumen/nn/params.hpp"

namespace lumen::nn {

// {"name", "shape": {...}, "token_embedding", "positional", "per_block", "blocks", "output_head", "total",
//  "embedding_share", "vocab_share", "memory_bytes": {precision: bytes}, ...}
nlohmann::json params_json(const ModelShape& s, const ParamCount& c);
// {"vocab", "tied", "sweep": [{"d_model", "layers", "heads", "ffn", "embedding", "blocks", ...}]}
nlohmann::json sweep_json(const ModelShape& base);

}  // namespace lumen::nn
