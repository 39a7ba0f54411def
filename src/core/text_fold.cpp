#include "lumen/core/text_fold.hpp"

#include <algorithm>
#include <cstdint>

#include "core/unicode_upper_table.hpp"
#include "lumen/core/utf8.hpp"

namespace lumen {

namespace {

bool is_space(std::uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x20) || cp == 0x85 || cp == 0xa0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

// The code point at s[i] and its length, for scanning valid text (a stray byte reads as U+FFFD, length 1, so
// scanning always advances).
std::size_t step(std::string_view s, std::size_t i, std::uint32_t& cp) {
  std::size_t j = i;
  cp = next_utf8(s, j).value_or(0xfffd);
  return j - i;
}

}  // namespace

std::optional<std::string> unicode_upper(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {  // ASCII fast path
      out += (b >= 'a' && b <= 'z') ? static_cast<char>(b - 32) : static_cast<char>(b);
      ++i;
      continue;
    }
    const auto decoded = next_utf8(s, i);
    if (!decoded) return std::nullopt;
    const std::uint32_t cp = *decoded;
    const auto* first = detail::kUpperTable;
    const auto* last = detail::kUpperTable + detail::kUpperTableSize;
    const auto* it =
        std::lower_bound(first, last, cp, [](const detail::UpperEntry& e, std::uint32_t c) { return e.cp < c; });
    if (it != last && it->cp == cp) {
      for (std::uint32_t k = 0; k < it->n; ++k) append_utf8(out, it->up[k]);
    } else {
      append_utf8(out, cp);
    }
  }
  return out;
}

char32_t simple_lower(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c < 0x80) return c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 32;  // Latin-1: À..Þ except ×
  if (c >= 0x100 && c <= 0x17F) {                            // Latin Extended-A: pairs
    if (c == 0x130) return 'i';                              // İ
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c % 2 == 1) ? c + 1 : c;
    if (c == 0x178) return 0xFF;
    if (c <= 0x137 || (c >= 0x14A && c <= 0x177)) return (c % 2 == 0) ? c + 1 : c;
    return c;
  }
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;  // Greek capitals
  if (c >= 0x410 && c <= 0x42F) return c + 32;                // Cyrillic А..Я
  if (c >= 0x400 && c <= 0x40F) return c + 80;                // Cyrillic Ѐ..Џ
  return c;
}

std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0, start = 0;
  bool in_word = false;
  while (i < line.size()) {
    std::uint32_t cp;
    const std::size_t n = step(line, i, cp);
    if (is_space(cp)) {
      if (in_word) words.push_back(line.substr(start, i - start));
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      start = i;
    }
    i += n;
  }
  if (in_word) words.push_back(line.substr(start));
  return words;
}

std::string_view strip_whitespace(std::string_view s) {
  std::size_t b = 0;
  while (b < s.size()) {
    std::uint32_t cp;
    const std::size_t n = step(s, b, cp);
    if (!is_space(cp)) break;
    b += n;
  }
  std::size_t e = s.size();
  while (e > b) {
    // find the start of the last code point before e
    std::size_t p = e - 1;
    while (p > b && (static_cast<unsigned char>(s[p]) & 0xc0) == 0x80) --p;
    std::size_t q = p;
    const auto cp = next_utf8(s, q);
    if (!cp || q != e || !is_space(*cp)) break;
    e = p;
  }
  return s.substr(b, e - b);
}

void append_lower_case(std::string_view s, std::string& out) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      out.push_back(static_cast<char>(b0 >= 'A' && b0 <= 'Z' ? b0 + 32 : b0));
      ++i;
      continue;
    }
    const std::size_t at = i;
    if (const auto cp = next_utf8(s, i)) append_utf8(out, simple_lower(*cp));
    else out.push_back(s[at]);
  }
}

std::string lower_case(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_lower_case(s, out);
  return out;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
  return out;
}

}  // namespace lumen
