#include "lumen/eval/compare_json.hpp"

namespace lumen::eval {

namespace {
nlohmann::json neighbours_json(const std::vector<NamedNeighbour>& nb) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& x : nb) j.push_back({{"word", x.word}, {"cosine", x.cosine}});
  return j;
}
}  // namespace

nlohmann::json comparison_json(const Comparison& c, const std::string& source_a, const std::string& source_b) {
  nlohmann::json j = {{"a", {{"source", source_a}, {"V", c.V_a}, {"d", c.d_a}}},
                      {"b", {{"source", source_b}, {"V", c.V_b}, {"d", c.d_b}}},
                      {"shared", c.shared},
                      {"n", c.n},
                      {"k", c.k},
                      {"overlap",
                       {{"mean", c.mean_overlap},
                        {"median", c.median_overlap},
                        {"histogram", c.histogram},
                        {"words", c.queries},
                        {"sampled", c.sampled},
                        {"stderr", c.overlap_stderr},
                        {"seed", c.seed}}},
                      {"cka", c.cka},
                      {"seconds", c.seconds}};
  j["non_finite"] = {{"count", c.non_finite}, {"words", c.non_finite_words}};
  if (c.procrustes) {
    const auto& p = *c.procrustes;
    j["procrustes"] = {{"residual", p.residual}, {"relative_residual", p.relative_residual},
                       {"scale", p.scale},       {"norm_a", p.norm_a},
                       {"norm_b", p.norm_b},     {"reflection", p.reflection}};
  } else {
    j["procrustes"] = nullptr;
    j["procrustes_skipped"] = c.procrustes_skipped;
  }
  nlohmann::json moved = nlohmann::json::array();
  for (const auto& m : c.moved)
    moved.push_back(
        {{"word", m.word}, {"overlap", m.overlap}, {"a", neighbours_json(m.in_a)}, {"b", neighbours_json(m.in_b)}});
  j["moved"] = moved;
  return j;
}

}  // namespace lumen::eval
