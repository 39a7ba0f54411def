#pragma once
// A comparison of two tables as JSON: what `lumen compare --json` prints and the explorer's /api/compare answers,
// one schema for both (docs/compare.md).
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/eval/compare.hpp"

namespace lumen::eval {

// source_a, source_b: how the two tables are named (a file, or "main"/"head" in the explorer).
nlohmann::json comparison_json(const Comparison& c, const std::string& source_a, const std::string& source_b);

}  // namespace lumen::eval
