#pragma once
// A map as JSON: one schema, printed by `lumen project --json` (and written to OUT.json) and answered by the
// explorer's /api/projection alike (docs/project.md, docs/serve.md). The coordinates with the numbers that say how
// far to trust them: PCA's variance ratio; t-SNE's KL; UMAP's curve; for every method the share of each sampled
// point's k nearest neighbours the map keeps and, with several seeds, how much the maps agree.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lumen/core/row_label.hpp"
#include "lumen/project/map.hpp"

namespace lumen::project {

// {"method", "table", "points": n, "seconds", the method's numbers, "metric", "k", "sampled", "knn_preservation",
// "agreement" (null with one seed), "caption": [lines]}. cosine: neighbours were by cosine (else "euclidean").
nlohmann::json map_summary_json(const Map& m, const std::string& table, bool cosine);

// [{"token", "display", "id", "x", "y"}...], with "highlight": true on the points highlight marks (may be empty).
nlohmann::json map_points_json(const Map& m, const RowNames& rows, const std::vector<std::uint8_t>& highlight = {});

// The summary with "points" the list of points.
nlohmann::json map_json(const Map& m, const std::string& table, bool cosine, const RowNames& rows,
                        const std::vector<std::uint8_t>& highlight = {});

}  // namespace lumen::project
