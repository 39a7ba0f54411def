#pragma once
// Anisotropy as JSON, one schema for `lumen info --json`, `lumen drift --json` (per layer), the explorer and Python:
// {"rows", "pairs", "all_pairs", "mean_cosine", "std_cosine", "pca_rows", "top_direction"} (docs/formats.md);
// null when it is not defined() (fewer than two usable rows).
#include <nlohmann/json.hpp>

#include "lumen/project/anisotropy.hpp"

namespace lumen::project {

nlohmann::json anisotropy_json(const Anisotropy& a);

}  // namespace lumen::project
