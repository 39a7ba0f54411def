#pragma once
// A table as a user names it, opened the one way the CLI, the explorer and Python share: a file of any format
// (io::open_table), the built-in "toy" table, or the default table (io/default_table.hpp); with its tokenizer (rows
// labelled by token, text/table_labels.hpp) and the cache directory $LUMEN_CACHE names when none is given. It lives
// in text, above io, so that the readers need nothing above core.
#include <memory>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::text {

struct TableRequest {
  // A file; "toy" (when no such file exists): the chapter's toy table, built in; empty or "default" (when no such
  // file exists): the default table (default_table_path()).
  std::string path;
  // format, dtype, limit, tensor, output_head, vocab_path, unicode_errors, threads, and cache_dir (empty:
  // $LUMEN_CACHE if set, else no cache).
  io::OpenOptions open;
  // The tokenizer that labels the rows (tokenizer_for_table): a path, "none", or empty (a tokenizer.json
  // beside a table whose rows have no names of their own).
  std::string tokenizer;
};

struct LoadedTable {
  Table table;                                 // the default table's source reads "default"
  std::shared_ptr<const Tokenizer> tokenizer;  // null when no tokenizer labels the rows
  // What the caller should tell the user: the report's warnings, then a line about duplicate words, if any.
  std::vector<std::string> warnings;
};

// Opens the table `request` names; `report` says what was dropped or repaired on the way. Throws as io::open_table
// does, and InputError when the default table is asked for and not built.
LoadedTable load_table(const TableRequest& request, io::LoadReport& report);

}  // namespace lumen::text
