#pragma once
// lumen's one UTF-8 codec. Well-formed means what Python's decoder accepts: no overlong forms, no surrogates,
// nothing above U+10FFFF. Repair follows Python's error handlers: strict (reject), replace (each maximal
// invalid subpart becomes one U+FFFD), ignore (dropped).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lumen {

// Length of the well-formed sequence at s[i] (1..4), or 0 when the bytes there are not one; `bad` is then the
// length of the maximal invalid subpart (at least 1), which a decoder replaces by one U+FFFD.
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t& bad);
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  std::size_t bad = 0;
  return utf8_sequence(s, i, bad);
}

// Decodes the code point at s[i] and advances i past it; nullopt (i advanced by one byte) where the bytes are
// not well-formed.
std::optional<char32_t> next_utf8(std::string_view s, std::size_t& i);
void append_utf8(std::string& out, char32_t cp);

// Byte offset of the first invalid sequence in s, or std::string_view::npos if s is valid UTF-8.
std::size_t utf8_invalid_at(std::string_view s);
inline bool valid_utf8(std::string_view s) { return utf8_invalid_at(s) == std::string_view::npos; }
// s with invalid sequences replaced by U+FFFD (replace = true) or removed (replace = false).
std::string utf8_repair(std::string_view s, bool replace);
// What an error message quotes of a user's text: s itself when at most max_bytes, else its first max_bytes cut
// at a sequence boundary and "... (N bytes)", so a 100 kB context is not echoed whole.
std::string utf8_excerpt(std::string_view s, std::size_t max_bytes = 120);

}  // namespace lumen
