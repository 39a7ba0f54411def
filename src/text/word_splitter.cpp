#include "lumen/text/word_splitter.hpp"

#include <cstdint>

#include "lumen/core/text_fold.hpp"
#include "lumen/core/utf8.hpp"

namespace lumen::text {

bool is_ascii_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool is_ascii_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

void WordSplitter::lower_append(std::string_view s, std::string& out) const {
  for (std::size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      out.push_back(static_cast<char>(b0 >= 'A' && b0 <= 'Z' ? b0 + 32 : b0));
      ++i;
      continue;
    }
    const std::size_t at = i;
    if (const auto cp = next_utf8(s, i)) append_utf8(out, simple_lower(*cp));
    else out.push_back(s[at]);  // malformed bytes are copied as they are
  }
}

std::vector<std::string> WordSplitter::split_text(std::string_view text) const {
  std::vector<std::string> out;
  std::string arena;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_ascii_space(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !is_ascii_space(text[j])) ++j;
    if (j > i) {
      arena.clear();
      split(text.substr(i, j - i), arena, [&](std::size_t b, std::size_t n) { out.push_back(arena.substr(b, n)); });
    }
    i = j;
  }
  return out;
}

}  // namespace lumen::text
