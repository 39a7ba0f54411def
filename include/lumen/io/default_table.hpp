#pragma once
// The default table a face opens when the user names none: where it lies (core/data_paths.hpp, or
// $LUMEN_DEFAULT_TABLE), and the error that says how to build it.
#include <string>

namespace lumen::io {

// The default table: $LUMEN_DEFAULT_TABLE if set, else the one the face found (core/data_paths.hpp:
// BUILD_DIR/default/brown.vec, made by scripts/make-default-table.sh); empty if none is known. require_default_table()
// throws InputError saying how to build it if missing.
std::string default_table_path();
std::string require_default_table();

}  // namespace lumen::io
