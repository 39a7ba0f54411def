#pragma once
// A table as a user names it, opened the one way the CLI, the explorer and Python share: a file of any format
// (io::open_table), the built-in "toy" table, or the default table; with its tokenizer (rows labelled by token) and
// the cache directory $LUMEN_CACHE names when none is given.
#include <memory>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::io {

struct TableRequest {
  // A file; "toy" (when no such file exists): the chapter's toy table, built in; empty or "default" (when no such
  // file exists): the default table (default_table_path()).
  std::string path;
  // format, dtype, limit, tensor, output_head, vocab_path, unicode_errors, threads, and cache_dir (empty:
  // $LUMEN_CACHE if set, else no cache).
  OpenOptions open;
  // The tokenizer that labels the rows (text::tokenizer_for_table): a path, "none", or empty (a tokenizer.json
  // beside a table whose rows have no names of their own).
  std::string tokenizer;
};

struct LoadedTable {
  Table table;                                       // the default table's source reads "default"
  std::shared_ptr<const text::Tokenizer> tokenizer;  // null when no tokenizer labels the rows
  // What the caller should tell the user: the report's warnings, then a line about duplicate words, if any.
  std::vector<std::string> warnings;
};

// Opens the table `request` names; `report` says what was dropped or repaired on the way. Throws as io::open_table
// does, and InputError when the default table is asked for and not built.
LoadedTable load_table(const TableRequest& request, LoadReport& report);

// The default table: $LUMEN_DEFAULT_TABLE if set, else the one the face found (core/data_paths.hpp:
// BUILD_DIR/default/brown.vec, made by scripts/make-default-table.sh); empty if none is known. require_default_table()
// throws InputError saying how to build it if missing.
std::string default_table_path();
std::string require_default_table();

}  // namespace lumen::io
