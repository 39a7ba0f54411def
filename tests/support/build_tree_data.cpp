// Every test binary finds lumen's data as the CLI does, in the build tree (core/data_paths.hpp): BUILD/gpt2 and
// BUILD/default/brown.vec. The library compiles in no path, so without this a test would see none.
#include "lumen/core/data_paths.hpp"

namespace {
const bool kBuildTreeData = [] {
  lumen::set_data_paths(lumen::find_data_paths(LUMEN_BINARY_DIR));
  return true;
}();
}  // namespace
