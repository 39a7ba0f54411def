#include "lumen/project/map_json.hpp"

#include <numeric>

namespace lumen::project {

nlohmann::json map_summary_json(const Map& m, const std::string& table, bool cosine) {
  nlohmann::json j;
  j["method"] = method_name(m.method);
  j["table"] = table;
  j["points"] = m.rows.size();
  j["left_out"] = m.left_out;  // ids of rows not mapped (a NaN or an infinity in them)
  j["seconds"] = m.seconds;
  if (m.method == Method::pca) {
    j["variance_ratio"] = m.variance_ratio;
    j["variance_kept"] = std::accumulate(m.variance_ratio.begin(), m.variance_ratio.end(), 0.0);
  } else if (m.method == Method::umap) {
    j.update({{"seeds", m.seeds},
              {"neighbors", m.neighbors},
              {"min_dist", m.min_dist},
              {"knn", m.hnsw ? "hnsw" : "exact"},
              {"epochs", m.iterations},
              {"a", m.a},
              {"b", m.b}});
  } else if (m.method == Method::tsne) {
    j.update({{"kl", m.kl},
              {"seeds", m.seeds},
              {"perplexity", m.perplexity},
              {"iterations", m.iterations},
              {"gradient", m.exact_gradient ? "exact" : "barnes-hut"}});
  }
  j["metric"] = cosine ? "cosine" : "euclidean";
  j["k"] = m.k;
  j["sampled"] = m.sampled;
  j["knn_preservation"] = m.preservation;
  j["agreement"] = m.agreement >= 0 ? nlohmann::json(m.agreement) : nlohmann::json(nullptr);
  j["caption"] = describe(m);
  return j;
}

nlohmann::json map_points_json(const Map& m, const RowNames& rows, const std::vector<std::uint8_t>& highlight) {
  nlohmann::json pts = nlohmann::json::array();
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    const Id id = m.rows[i];
    nlohmann::json p = {{"token", rows.token(id)},
                        {"display", rows.display(id)},
                        {"id", id},
                        {"x", m.xy[2 * i]},
                        {"y", m.xy[2 * i + 1]}};
    if (i < highlight.size() && highlight[i]) p["highlight"] = true;
    pts.push_back(std::move(p));
  }
  return pts;
}

nlohmann::json map_json(const Map& m, const std::string& table, bool cosine, const RowNames& rows,
                        const std::vector<std::uint8_t>& highlight) {
  nlohmann::json j = map_summary_json(m, table, cosine);
  j["points"] = map_points_json(m, rows, highlight);
  return j;
}

}  // namespace lumen::project
