#include "lumen/text/output_head.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <system_error>

#include "lumen/core/error.hpp"
#include "lumen/io/default_table.hpp"

namespace lumen::text {

TableRequest output_head_request(const TableRequest& table, const std::string& head) {
  TableRequest other = table;
  other.open.tensor.clear();
  other.open.output_head = false;
  if (!head.empty()) {
    other.path = head;
    return other;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  // The default table (named by nothing, or "default" where no such file exists) lies where the face was told.
  const bool is_default = table.path.empty() || (table.path == "default" && !fs::exists(table.path, ec));
  const std::string path = is_default ? io::default_table_path() : table.path;
  const bool safetensors = table.open.format ? *table.open.format == io::Format::safetensors
                                             : !path.empty() && fs::is_regular_file(path, ec) &&
                                                   io::detect_format(path) == io::Format::safetensors;
  if (safetensors) {
    other.open.output_head = true;
    return other;
  }
  other.path = path + ".out";
  if (!fs::exists(other.path, ec))
    throw InputError(fmt::format(
        "{}: no output head beside the table ({} is missing); training an untied next-token model writes one, an "
        "untied safetensors checkpoint holds lm_head.weight, a tied model has a single table",
        is_default ? "the default table" : table.path, other.path));
  return other;
}

LoadedTable load_output_head(const TableRequest& table, const std::string& head, io::LoadReport& report) {
  const TableRequest r = output_head_request(table, head);
  LoadedTable loaded = load_table(r, report);
  if (r.open.output_head) loaded.table.source += " [" + report.tensor + "]";  // the same file: say which tensor
  return loaded;
}

}  // namespace lumen::text
