#pragma once
// Word comparison the way gensim's benchmarks compare words: Python's str.upper() (full Unicode case
// mapping, so 'straße' and 'STRASSE' are the same word) and str.split() (Unicode whitespace).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lumen::eval {

// The upper case of a UTF-8 string as Python's str.upper() gives it; nullopt if `s` is not valid UTF-8.
std::optional<std::string> unicode_upper(std::string_view s);

// True if `s` is valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view s);

// Splits a valid UTF-8 line on runs of whitespace as Python's str.split() with no argument does
// (ASCII whitespace, \x1c-\x1f, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
std::vector<std::string_view> split_whitespace(std::string_view line);

// Strips that whitespace from both ends (Python's str.strip()).
std::string_view strip_whitespace(std::string_view s);

}  // namespace lumen::eval
