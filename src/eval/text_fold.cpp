#include "lumen/eval/text_fold.hpp"

#include <algorithm>
#include <cstdint>

#include "unicode_upper_table.hpp"

namespace lumen::eval {

namespace {

// Decodes one code point at s[i]; returns its length in bytes, 0 if invalid (overlong, surrogate, > U+10FFFF).
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  std::size_t n;
  std::uint32_t min;
  if ((b0 & 0xe0) == 0xc0) {
    n = 2, cp = b0 & 0x1f, min = 0x80;
  } else if ((b0 & 0xf0) == 0xe0) {
    n = 3, cp = b0 & 0x0f, min = 0x800;
  } else if ((b0 & 0xf8) == 0xf0) {
    n = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) return 0;
  return n;
}

void encode(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

bool is_space(std::uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x20) || cp == 0x85 || cp == 0xa0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

// Length of the code point at s[i] for scanning valid text (1 for a stray byte, so scanning always advances).
std::size_t step(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const std::size_t n = decode(s, i, cp);
  if (n == 0) {
    cp = 0xfffd;
    return 1;
  }
  return n;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  std::uint32_t cp;
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = decode(s, i, cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

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
    std::uint32_t cp;
    const std::size_t n = decode(s, i, cp);
    if (n == 0) return std::nullopt;
    i += n;
    const auto* first = detail::kUpperTable;
    const auto* last = detail::kUpperTable + detail::kUpperTableSize;
    const auto* it =
        std::lower_bound(first, last, cp, [](const detail::UpperEntry& e, std::uint32_t c) { return e.cp < c; });
    if (it != last && it->cp == cp) {
      for (std::uint32_t k = 0; k < it->n; ++k) encode(it->up[k], out);
    } else {
      encode(cp, out);
    }
  }
  return out;
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
    std::uint32_t cp;
    const std::size_t n = decode(s, p, cp);
    if (n != e - p || !is_space(cp)) break;
    e = p;
  }
  return s.substr(b, e - b);
}

}  // namespace lumen::eval
