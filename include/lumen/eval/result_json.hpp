#pragma once
// A benchmark's result as JSON: one schema per result, written by `lumen eval ... --json` and returned (as a dict)
// by Python's lumen.eval functions. The fields are listed in docs/python.md.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lumen/eval/analogies.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/eval/malformed_line.hpp"
#include "lumen/eval/similarity.hpp"
#include "lumen/eval/word_pairs.hpp"

namespace lumen::eval {

// [{"line", "reason"}...]: the lines a benchmark file's reader skipped.
nlohmann::json malformed_json(const std::vector<MalformedLine>& bad);
// {"name", "correct", "answered", "skipped", "accuracy"}.
nlohmann::json tally_json(const AnalogyTally& t);
// table, file: how the caller names them. Accuracy is NaN (JSON null) when nothing was answered.
nlohmann::json analogy_result_json(const std::string& table, const std::string& file, const AnalogySet& set,
                                   const AnalogyResult& r, const AnalogyOptions& o);
nlohmann::json similarity_result_json(const std::string& table, const std::string& file, const WordPairSet& set,
                                      const SimilarityResult& r, const SimilarityOptions& o);

}  // namespace lumen::eval
