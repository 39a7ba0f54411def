#include "lumen/text/word_splitter.hpp"

#include <cstdint>

namespace lumen::text {

bool is_ascii_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool is_ascii_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
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
