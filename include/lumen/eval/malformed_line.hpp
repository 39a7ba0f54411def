#pragma once
// A line of a benchmark file that could not be read: skipped and counted (or, with `strict`, an error).
#include <cstdint>
#include <string>

namespace lumen::eval {

struct MalformedLine {
  std::uint64_t line = 0;  // 1-based
  std::string reason;      // what was expected
};

}  // namespace lumen::eval
