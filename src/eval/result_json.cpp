#include "lumen/eval/result_json.hpp"

namespace lumen::eval {

nlohmann::json malformed_json(const std::vector<MalformedLine>& bad) {
  auto j = nlohmann::json::array();
  for (const auto& m : bad) j.push_back({{"line", m.line}, {"reason", m.reason}});
  return j;
}

nlohmann::json tally_json(const AnalogyTally& t) {
  return {{"name", t.name},
          {"correct", t.correct},
          {"answered", t.answered},
          {"skipped", t.skipped},
          {"accuracy", t.accuracy()}};
}

nlohmann::json analogy_result_json(const std::string& table, const std::string& file, const AnalogySet& set,
                                   const AnalogyResult& r, const AnalogyOptions& o) {
  nlohmann::json sections = nlohmann::json::array();
  for (const auto& s : r.sections) sections.push_back(tally_json(s));
  return {{"table", table},
          {"file", file},
          {"method", o.method == AnalogyMethod::add ? "add" : "mul"},
          {"exclude_inputs", o.exclude},
          {"case_insensitive", o.case_insensitive},
          {"restrict", r.rows},
          {"accuracy", r.total.accuracy()},
          {"correct", r.total.correct},
          {"answered", r.total.answered},
          {"skipped", r.total.skipped},
          {"questions", r.total.answered + r.total.skipped},
          {"sections", sections},
          {"semantic", tally_json(r.semantic)},
          {"syntactic", tally_json(r.syntactic)},
          {"top_is_input",
           r.total.answered ? static_cast<double>(r.top_is_input) / static_cast<double>(r.total.answered) : 0.0},
          {"malformed", malformed_json(set.malformed)}};
}

nlohmann::json similarity_result_json(const std::string& table, const std::string& file, const WordPairSet& set,
                                      const SimilarityResult& r, const SimilarityOptions& o) {
  return {{"table", table},
          {"file", file},
          {"case_insensitive", o.case_insensitive},
          {"restrict", r.rows},
          {"pearson", r.pearson},
          {"spearman", r.spearman},
          {"pairs", r.pairs},
          {"oov", r.oov},
          {"oov_ratio", r.oov_ratio()},
          {"oov_percent", 100.0 * r.oov_ratio()},
          {"malformed", malformed_json(set.malformed)}};
}

}  // namespace lumen::eval
