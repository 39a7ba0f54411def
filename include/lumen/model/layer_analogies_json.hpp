#pragma once
// Analogies by layer as JSON: what `lumen eval analogies MODEL FILE --layers --json` prints.
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/eval/analogies.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/model/layer_analogies.hpp"

namespace lumen::model {

// {"model", "file", "context", "alone", "words", "one_token", "multi_token" (the words left out), "best_layer",
// "seconds", "layers": [eval's analogy result (without "table") and "layer"]}
nlohmann::json layer_analogies_json(const LayerAnalogies& a, const eval::AnalogySet& set,
                                    const eval::AnalogyOptions& options, const std::string& model);

}  // namespace lumen::model
