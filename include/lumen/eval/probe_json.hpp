#pragma once
// A probe's result as JSON: what `lumen probe --json` prints and lumen.eval.probe returns, one schema for both.
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/eval/label_set.hpp"
#include "lumen/eval/probe.hpp"

namespace lumen::eval {

// source: how the table is named (its file). Keys: table, labels, classes, n, missing, folds, C, tol, accuracy,
// accuracy_std, fold_accuracy, control_accuracy, control_std, control_fold_accuracy, majority, selectivity,
// iterations, converged, seconds, words [{word, row, label, control, fold}].
nlohmann::json probe_json(const ProbeResult& r, const LabelSet& labels, const std::string& source);

}  // namespace lumen::eval
