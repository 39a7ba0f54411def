#pragma once
// Probes by layer as JSON: what `lumen probe MODEL LABELS --layers --json` prints and Python's
// lumen.probe(..., layers=True) returns. {"model", "labels", "context", "alone", "n", "multi_token", "classes",
// "best_layer", "seconds", "layers": [{"layer", and eval::probe_json's keys but "words"}] (N+1),
// "words": [{"word", "label", "control", "fold", "tokens"}]} (the folds and labels are the same at every layer).
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/model/layer_probe.hpp"

namespace lumen::model {

nlohmann::json layer_probe_json(const LayerProbe& p, const eval::LabelSet& labels, const std::string& model);

}  // namespace lumen::model
