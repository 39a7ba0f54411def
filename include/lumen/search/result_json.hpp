#pragma once
// Search results as JSON: one schema per result, printed by the CLI's --json (`lumen neighbours`, `similarity`,
// `analogy`, `doesnt-match`) and answered by the explorer's HTTP API (/api/neighbours, ...) alike. The fields are
// listed in docs/search.md and docs/serve.md. A NaN score (a row holding NaN or Inf) is JSON null, never 0.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lumen/core/row_label.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/neighbour.hpp"
#include "lumen/search/query_word.hpp"

namespace lumen::search {

// [{"token", "display", "id", "score"}...]: ranked rows, as every result lists them.
nlohmann::json scored_rows_json(const std::vector<Neighbour>& ns, const RowNames& rows);

// {"query", "id", "metric", "approx", "k", "neighbours"} and "k_requested" when k was clamped to the rows searched
// (k: how many were searched for). id: the query's row, null for a word outside the vocabulary.
nlohmann::json neighbours_json(const std::string& query, std::optional<Id> id, Metric metric, bool approx,
                               std::size_t k, std::size_t k_requested, const std::vector<Neighbour>& ns,
                               const RowNames& rows);

// {"w1", "w2", "id1", "id2", "metric", "score", "cosine", "dot", "norm1", "norm2"}: score by the metric asked for,
// and the parts of the cosine (cos = dot / (norm1 norm2)).
nlohmann::json similarity_json(const QueryWord& a, const QueryWord& b, Metric metric, float score,
                               const SimilarityParts& parts);

// {"query": "a : b :: c : ?", "a", "b", "c", "method", "exclude_inputs", "k", "answers"}, "k_requested" when
// options.k is more than the `rows` that can answer, and "expected", "rank" (null: not rankable) when expected is
// not empty.
nlohmann::json analogy_json(const std::string& a, const std::string& b, const std::string& c,
                            const AnalogyOptions& options, std::size_t rows, const AnalogyResult& r,
                            const std::string& expected, const RowNames& names);

// {"words", "doesnt_match", "id", "scores"}: the odd one out (null when every cosine is NaN) and each word's cosine
// to the mean, least similar first.
nlohmann::json doesnt_match_json(const std::vector<std::string>& words, const OddOneOut& r, const RowNames& rows);

}  // namespace lumen::search
