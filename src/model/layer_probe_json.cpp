#include "lumen/model/layer_probe_json.hpp"

#include "lumen/eval/probe_json.hpp"

namespace lumen::model {

nlohmann::json layer_probe_json(const LayerProbe& p, const eval::LabelSet& labels, const std::string& model) {
  const eval::ProbeResult& first = p.layers.at(0);
  nlohmann::json j{{"model", model},
                   {"labels", labels.name},
                   {"context", p.vectors.context},
                   {"alone", p.vectors.context == kAloneContext},
                   {"n", first.words.size()},
                   {"multi_token", p.vectors.multi_token},
                   {"classes", first.classes},
                   {"best_layer", p.best},
                   {"seconds", p.seconds}};
  j["layers"] = nlohmann::json::array();
  for (std::size_t l = 0; l < p.layers.size(); ++l) {
    nlohmann::json one = eval::probe_json(p.layers[l], labels, model);
    one.erase("words");
    one.erase("table");
    one["layer"] = l;
    j["layers"].push_back(std::move(one));
  }
  j["words"] = nlohmann::json::array();
  for (std::size_t i = 0; i < first.words.size(); ++i)
    j["words"].push_back({{"word", first.words[i]},
                          {"label", first.classes.at(static_cast<std::size_t>(first.labels[i]))},
                          {"control", first.classes.at(static_cast<std::size_t>(first.control_labels[i]))},
                          {"fold", first.fold[i]},
                          {"tokens", p.vectors.tokens.at(static_cast<std::size_t>(first.rows[i]))}});
  return j;
}

}  // namespace lumen::model
