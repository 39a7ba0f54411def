#pragma once
// Reads a whole (small) benchmark file into memory; IoError naming the path if it cannot.
#include <string>

namespace lumen::eval::detail {

std::string read_text_file(const std::string& path);

}  // namespace lumen::eval::detail
