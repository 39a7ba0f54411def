#include "lumen/model/model_claims_json.hpp"

#include <cmath>

namespace lumen::model {

namespace {

nlohmann::json number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json spread_json(const SeedSpread& s) {
  return {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}, {"n", s.n}};
}

nlohmann::json claim_figure_json(const ClaimFigure& f) {
  nlohmann::json values = nlohmann::json::array();
  for (const double v : f.values) values.push_back(number(v));
  return {{"values", values}, {"mean", number(f.spread.mean)}, {"sd", number(f.spread.sd)}, {"n", f.spread.n},
          {"over", f.over},   {"verdict", f.verdict}};
}

nlohmann::json depth_json(const DepthScores& d) {
  nlohmann::json j{{"layers", d.layers},
                   {"probe_words", d.probe_words},
                   {"folds", d.folds},
                   {"probe_row0", number(d.probe_row0)},
                   {"probe_deeper", number(d.probe_deeper)},
                   {"probe_layer", d.probe_layer},
                   {"analogies", d.analogies}};
  if (d.analogies) {
    j["analogy_questions"] = d.analogy_questions;
    j["analogy_row0"] = number(d.analogy_row0);
    j["analogy_deeper"] = number(d.analogy_deeper);
    j["analogy_layer"] = d.analogy_layer;
  }
  return j;
}

nlohmann::json pairs_json(const std::vector<PairCosine>& pairs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : pairs)
    j.push_back({{"a", p.a}, {"b", p.b}, {"a_id", p.a_id}, {"b_id", p.b_id}, {"input", p.input}, {"head", p.head}});
  return j;
}

nlohmann::json model_claims_json(const ModelClaims& c) {
  return {{"model", c.source},
          {"V", c.V},
          {"d", c.d},
          {"layers", c.layers},
          {"tied", c.tied},
          {"labels", c.labels},
          {"depth", depth_json(c.depth)},
          {"probe_gain", claim_figure_json(c.probe_gain)},
          {"analogy_gain", claim_figure_json(c.analogy_gain)},
          {"pairs", pairs_json(c.pairs)},
          {"pair_gap", claim_figure_json(c.pair_gap)}};
}

}  // namespace lumen::model
