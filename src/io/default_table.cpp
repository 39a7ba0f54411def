#include "lumen/io/default_table.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/data_paths.hpp"
#include "lumen/core/error.hpp"

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

}  // namespace lumen::io
