#pragma once
// UTF-8 checking and repair for tokens read from files, with Python's error handlers' semantics:
// strict (reject), replace (each maximal invalid subsequence becomes U+FFFD), ignore (dropped).
#include <cstddef>
#include <string>
#include <string_view>

namespace lumen::io {

// Byte offset of the first invalid sequence in s, or std::string_view::npos if s is valid UTF-8.
std::size_t utf8_invalid_at(std::string_view s);
// s with invalid sequences replaced by U+FFFD (replace = true) or removed (replace = false).
std::string utf8_repair(std::string_view s, bool replace);

}  // namespace lumen::io
