#pragma once
// A table as JSON, spelled once for every face: `lumen info --json`, `lumen convert --json`, the server's /api/info
// and Python's Table.info() all start from table_json.
//   table_json:      {"source", "format", "V", "d", "dtype"}
//   table_info_json: table_json and what `lumen info` adds: "bytes", "file_bytes", "file_dtype", "mapped",
//                    "from_cache", "rows_read", "duplicates", "first_duplicate" (when any), "repaired_tokens",
//                    "tensor" (safetensors, GGUF; "file_dtype" may be a ggml type such as "Q8_0"), "norm" {"min",
//                    "median", "max"}, "zero_rows", "nan", "inf", "nonfinite_rows", "nonfinite" [{"id", "word"}] (the
//                    first, in row order), "nonfinite_truncated".
#include <nlohmann/json.hpp>

#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/summary.hpp"

namespace lumen::io {

nlohmann::json table_json(const Table& t);
nlohmann::json table_info_json(const Table& t, const LoadReport& report, const Summary& s);

}  // namespace lumen::io
