#include "lumen/eval/probe_json.hpp"

#include <algorithm>

namespace lumen::eval {

nlohmann::json probe_json(const ProbeResult& r, const LabelSet& labels, const std::string& source) {
  nlohmann::json words = nlohmann::json::array();
  for (std::size_t i = 0; i < r.words.size(); ++i)
    words.push_back({{"word", r.words[i]},
                     {"row", r.rows[i]},
                     {"label", r.classes[static_cast<std::size_t>(r.labels[i])]},
                     {"control", r.classes[static_cast<std::size_t>(r.control_labels[i])]},
                     {"fold", r.fold[i]}});
  return {{"table", source},
          {"labels", labels.name},
          {"classes", r.classes},
          {"n", r.words.size()},
          {"missing", r.missing},
          {"folds", r.folds},
          {"C", r.C},
          {"tol", r.tol},
          {"accuracy", r.accuracy},
          {"accuracy_std", r.accuracy_std},
          {"fold_accuracy", r.probe.accuracy},
          {"control_accuracy", r.control_accuracy},
          {"control_std", r.control_std},
          {"control_fold_accuracy", r.control.accuracy},
          {"majority", r.majority},
          {"selectivity", r.selectivity},
          {"iterations", std::max(r.probe.iterations, r.control.iterations)},
          {"converged", r.probe.converged && r.control.converged},
          {"seconds", r.seconds},
          {"words", words}};
}

}  // namespace lumen::eval
