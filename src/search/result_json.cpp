#include "lumen/search/result_json.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace lumen::search {

namespace {

nlohmann::json id_or_null(std::optional<Id> id) { return id ? nlohmann::json(*id) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json scored_rows_json(const std::vector<Neighbour>& ns, const RowNames& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& n : ns)
    out.push_back({{"token", rows.token(n.id)}, {"display", rows.display(n.id)}, {"id", n.id}, {"score", n.score}});
  return out;
}

nlohmann::json neighbours_json(const std::string& query, std::optional<Id> id, Metric metric, bool approx,
                               std::size_t k, std::size_t k_requested, const std::vector<Neighbour>& ns,
                               const RowNames& rows) {
  nlohmann::json j = {{"query", query},
                      {"id", id_or_null(id)},
                      {"metric", metric_name(metric)},
                      {"approx", approx},
                      {"k", k},
                      {"neighbours", scored_rows_json(ns, rows)}};
  if (k_requested != k) j["k_requested"] = k_requested;
  return j;
}

nlohmann::json similarity_json(const QueryWord& a, const QueryWord& b, Metric metric, float score,
                               const SimilarityParts& parts) {
  return {{"w1", a.word},
          {"w2", b.word},
          {"id1", id_or_null(a.id)},
          {"id2", id_or_null(b.id)},
          {"metric", metric_name(metric)},
          {"score", score},
          {"cosine", parts.cosine},
          {"dot", parts.dot},
          {"norm1", parts.norm_a},
          {"norm2", parts.norm_b}};
}

nlohmann::json analogy_json(const std::string& a, const std::string& b, const std::string& c,
                            const AnalogyOptions& options, std::size_t rows, const AnalogyResult& r,
                            const std::string& expected, const RowNames& names) {
  nlohmann::json j = {{"query", fmt::format("{} : {} :: {} : ?", a, b, c)},
                      {"a", a},
                      {"b", b},
                      {"c", c},
                      {"method", analogy_method_name(options.method)},
                      {"exclude_inputs", options.exclude_inputs},
                      {"k", std::min(options.k, rows)},
                      {"answers", scored_rows_json(r.answers, names)}};
  if (options.k > rows) j["k_requested"] = options.k;
  if (!expected.empty()) {
    j["expected"] = expected;
    j["rank"] = r.rank ? nlohmann::json(*r.rank) : nlohmann::json(nullptr);
  }
  return j;
}

nlohmann::json doesnt_match_json(const std::vector<std::string>& words, const OddOneOut& r, const RowNames& rows) {
  return {{"words", words},
          {"doesnt_match", r.id ? nlohmann::json(rows.token(*r.id)) : nlohmann::json(nullptr)},
          {"id", id_or_null(r.id)},
          {"scores", scored_rows_json(r.by_distance, rows)}};
}

}  // namespace lumen::search
