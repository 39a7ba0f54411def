#include "lumen/model/drift_json.hpp"

#include "lumen/project/anisotropy_json.hpp"

namespace lumen::model {

nlohmann::json drift_json(const Drift& d, const text::Tokenizer& tok) {
  nlohmann::json j;
  j["token"] = tok.label(d.occurrences.at(0).token);
  j["contexts"] = nlohmann::json::array();
  for (const auto& o : d.occurrences)
    j["contexts"].push_back({{"text", o.context}, {"ids", o.ids}, {"position", o.position}, {"id", o.token}});
  const std::size_t L = d.cosine.size();
  j["layers"] = nlohmann::json::array();
  for (std::size_t l = 0; l < L; ++l) {
    nlohmann::json layer{{"layer", l},
                         {"cosine", d.cosine[l]},
                         {"baseline", project::anisotropy_json(d.baseline[l])},
                         {"adjusted", d.adjusted[l]},
                         {"contexts", nlohmann::json::array()}};
    for (const auto& o : d.occurrences) {
      nlohmann::json nearest = nlohmann::json::array(), lens = nlohmann::json::array();
      for (const auto& n : o.nearest[l])
        nearest.push_back(
            {{"token", tok.label(n.id)}, {"display", tok.label(n.id)}, {"id", n.id}, {"cosine", n.cosine}});
      for (const auto& c : o.lens[l])
        lens.push_back({{"token", tok.label(c.id)},
                        {"display", tok.label(c.id)},
                        {"id", c.id},
                        {"logit", c.logit},
                        {"prob", c.prob}});
      layer["contexts"].push_back({{"nearest", nearest}, {"lens", lens}});
    }
    j["layers"].push_back(layer);
  }
  j["layer0"] = {{"learned_positions", d.learned_positions},
                 {"position_term_norm", d.position_term_norm},
                 {"token_row_norm", d.token_row_norm},
                 {"same_token", d.same_token}};
  j["pca_variance_ratio"] = d.pca_variance_ratio;
  // Drift::pca_xy is flat (occurrence 0's layers, then occurrence 1's); a browser draws nested pairs more easily.
  nlohmann::json xy = nlohmann::json::array();
  for (std::size_t o = 0; o < d.occurrences.size(); ++o) {
    nlohmann::json path = nlohmann::json::array();
    for (std::size_t l = 0; l < L; ++l) {
      const std::size_t i = (o * L + l) * 2;
      path.push_back({d.pca_xy.at(i), d.pca_xy.at(i + 1)});
    }
    xy.push_back(path);
  }
  j["pca_xy"] = xy;
  return j;
}

}  // namespace lumen::model
