#include "lumen/project/anisotropy_json.hpp"

namespace lumen::project {

nlohmann::json anisotropy_json(const Anisotropy& a) {
  if (!a.defined()) return nullptr;
  return {{"rows", a.rows},
          {"pairs", a.pairs},
          {"all_pairs", a.all_pairs},
          {"mean_cosine", a.mean_cosine},
          {"std_cosine", a.std_cosine},
          {"pca_rows", a.pca_rows},
          {"top_direction", a.top_direction}};
}

}  // namespace lumen::project
