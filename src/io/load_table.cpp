#include "lumen/io/load_table.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/data_paths.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/toy.hpp"
#include "lumen/text/table_labels.hpp"

namespace lumen::io {

std::string default_table_path() {
  if (const char* env = std::getenv("LUMEN_DEFAULT_TABLE"); env != nullptr && *env != '\0') return env;
  return data_paths().default_table;
}

std::string require_default_table() {
  std::string p = default_table_path();
  if (p.empty())
    throw InputError(
        "no table given, and this program was not told where lumen's default table is: name a table file, or set "
        "LUMEN_DEFAULT_TABLE to one");
  if (!std::filesystem::exists(p))
    throw InputError(
        fmt::format("no table given, and the default table {} is not built yet: run "
                    "`bash scripts/make-default-table.sh` (about a minute: it trains it on the Brown "
                    "corpus), or name a table file",
                    p));
  return p;
}

LoadedTable load_table(const TableRequest& request, LoadReport& report) {
  const std::string& path = request.path;
  if (path.empty() || (path == "default" && !std::filesystem::exists(path))) {
    TableRequest d = request;
    d.path = require_default_table();
    LoadedTable t = load_table(d, report);
    t.table.source = "default";
    return t;
  }
  LoadedTable out;
  if (path == "toy" && !std::filesystem::exists(path)) {  // built in
    out.table = toy_table(request.open.limit, request.open.dtype);
    return out;
  }
  OpenOptions o = request.open;
  if (const char* env = std::getenv("LUMEN_CACHE"); o.cache_dir.empty() && env != nullptr) o.cache_dir = env;
  out.table = open_table(path, o, report);
  if (auto tok = text::tokenizer_for_table(request.tokenizer, path, out.table)) {
    text::label_rows(out.table, *tok, o.limit != 0);
    out.tokenizer = std::move(tok);
  }
  out.warnings = report.warnings;
  if (report.duplicates != 0)
    out.warnings.push_back(fmt::format("{}: {} duplicate word{} (first: '{}'); kept the first row of each", path,
                                       report.duplicates, report.duplicates == 1 ? "" : "s", report.first_duplicate));
  return out;
}

}  // namespace lumen::io
