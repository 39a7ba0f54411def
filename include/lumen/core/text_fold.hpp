#pragma once
// Case and whitespace, the way the tools lumen is compared with see them: Python's str.upper() (full Unicode
// case mapping, so 'straße' and 'STRASSE' are the same word) and str.split() for gensim's benchmarks, and the
// corpus tokenizer's lower case.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lumen {

// The upper case of a UTF-8 string as Python's str.upper() gives it; nullopt if `s` is not valid UTF-8.
std::optional<std::string> unicode_upper(std::string_view s);

// The lower case the corpus tokenizer applies: ASCII, Latin-1 Supplement, Latin Extended-A (pairs), Greek and
// Cyrillic basic blocks; every other code point maps to itself.
char32_t simple_lower(char32_t cp);

// A word in that lower case, appended to out (lower_case: returned); malformed bytes are copied as they are.
void append_lower_case(std::string_view s, std::string& out);
std::string lower_case(std::string_view s);

// A-Z to a-z only: for names that are ASCII by definition (file extensions, format names, HTTP header names),
// never for words.
std::string ascii_lower(std::string_view s);

// Splits a valid UTF-8 line on runs of whitespace as Python's str.split() with no argument does
// (ASCII whitespace, \x1c-\x1f, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
std::vector<std::string_view> split_whitespace(std::string_view line);

// Strips that whitespace from both ends (Python's str.strip()).
std::string_view strip_whitespace(std::string_view s);

}  // namespace lumen
