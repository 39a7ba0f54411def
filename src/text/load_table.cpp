#include "lumen/text/load_table.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/toy.hpp"
#include "lumen/io/default_table.hpp"
#include "lumen/text/table_labels.hpp"

namespace lumen::text {

LoadedTable load_table(const TableRequest& request, io::LoadReport& report) {
  const std::string& path = request.path;
  if (path.empty() || (path == "default" && !std::filesystem::exists(path))) {
    TableRequest d = request;
    d.path = io::require_default_table();
    LoadedTable t = load_table(d, report);
    t.table.source = "default";
    return t;
  }
  LoadedTable out;
  if (path == "toy" && !std::filesystem::exists(path)) {  // built in
    out.table = toy_table(request.open.limit, request.open.dtype);
    return out;
  }
  io::OpenOptions o = request.open;
  if (const char* env = std::getenv("LUMEN_CACHE"); o.cache_dir.empty() && env != nullptr) o.cache_dir = env;
  out.table = io::open_table(path, o, report);
  if (auto tok = tokenizer_for_table(request.tokenizer, path, out.table)) {
    label_rows(out.table, *tok, o.limit != 0);
    out.tokenizer = std::move(tok);
  }
  out.warnings = report.warnings;
  if (report.duplicates != 0)
    out.warnings.push_back(fmt::format("{}: {} duplicate word{} (first: '{}'); kept the first row of each", path,
                                       report.duplicates, report.duplicates == 1 ? "" : "s", report.first_duplicate));
  return out;
}

}  // namespace lumen::text
