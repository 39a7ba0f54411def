#include "lumen/io/table_json.hpp"

#include <string>

namespace lumen::io {

nlohmann::json table_json(const Table& t) {
  return {{"source", t.source},
          {"format", t.format},
          {"V", t.V()},
          {"d", t.d()},
          {"dtype", std::string(dtype_name(t.E.dtype()))}};
}

nlohmann::json table_info_json(const Table& t, const LoadReport& report, const Summary& s) {
  nlohmann::json j = table_json(t);
  j["bytes"] = t.E.bytes();
  j["file_bytes"] = report.file_bytes;
  j["file_dtype"] = file_type_name(report);
  j["mapped"] = report.mapped;
  j["from_cache"] = report.from_cache;
  j["rows_read"] = report.rows_read;
  j["duplicates"] = report.duplicates;
  if (!report.first_duplicate.empty()) j["first_duplicate"] = report.first_duplicate;
  j["repaired_tokens"] = report.repaired_tokens;
  if (!report.tensor.empty()) j["tensor"] = report.tensor;
  j["norm"] = {{"min", s.norm_min}, {"median", s.norm_median}, {"max", s.norm_max}};
  j["zero_rows"] = s.zero_rows;
  j["nan"] = s.nan;
  j["inf"] = s.inf;
  j["nonfinite_rows"] = s.nonfinite_rows;
  nlohmann::json named = nlohmann::json::array();
  for (const std::size_t r : s.nonfinite_ids) named.push_back({{"id", r}, {"word", t.vocab.token(r)}});
  j["nonfinite"] = std::move(named);
  j["nonfinite_truncated"] = s.nonfinite_ids.size() < s.nonfinite_rows;
  return j;
}

}  // namespace lumen::io
