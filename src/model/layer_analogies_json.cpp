#include "lumen/model/layer_analogies_json.hpp"

#include "lumen/eval/result_json.hpp"

namespace lumen::model {

nlohmann::json layer_analogies_json(const LayerAnalogies& a, const eval::AnalogySet& set,
                                    const eval::AnalogyOptions& options, const std::string& model) {
  nlohmann::json j{{"model", model},
                   {"file", set.path},
                   {"context", a.vectors.context},
                   {"alone", a.vectors.context == kAloneContext},
                   {"words", a.words},
                   {"one_token", a.vectors.layers.at(0).V()},
                   {"multi_token", a.multi_token},
                   {"best_layer", a.best},
                   {"seconds", a.seconds}};
  j["layers"] = nlohmann::json::array();
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    nlohmann::json one = eval::analogy_result_json(model, set.path, set, a.layers[l], options);
    one.erase("table");
    one.erase("file");
    one["layer"] = l;
    j["layers"].push_back(std::move(one));
  }
  return j;
}

}  // namespace lumen::model
