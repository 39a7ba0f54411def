#include "lumen/train/tokenizer.hpp"

#include <cstdint>

namespace lumen::train {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool is_ascii_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

namespace {
// Lower case of a code point in the blocks we handle; other code points map to themselves.
std::uint32_t lower_cp(std::uint32_t c) {
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

void put_utf8(std::uint32_t c, std::string& out) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}
}  // namespace

void WordTokenizer::lower_append(std::string_view s, std::string& out) const {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      out.push_back(static_cast<char>(b0 >= 'A' && b0 <= 'Z' ? b0 + 32 : b0));
      ++i;
      continue;
    }
    // Two-byte sequences hold every block we lower; anything else (or malformed bytes) is copied as is.
    if ((b0 & 0xE0) == 0xC0 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) {
      const std::uint32_t cp = ((b0 & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
      if (cp >= 0x80) {
        put_utf8(lower_cp(cp), out);
        i += 2;
        continue;
      }
    }
    out.push_back(static_cast<char>(b0));
    ++i;
  }
}

std::vector<std::string> WordTokenizer::tokenize(std::string_view text) const {
  std::vector<std::string> out;
  std::string arena;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !is_space(text[j])) ++j;
    if (j > i) {
      arena.clear();
      split(text.substr(i, j - i), arena, [&](std::size_t b, std::size_t n) { out.push_back(arena.substr(b, n)); });
    }
    i = j;
  }
  return out;
}

}  // namespace lumen::train
