#include "lumen/eval/analogy_set.hpp"

#include "lumen/core/error.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/core/utf8.hpp"
#include "read_text_file.hpp"

namespace lumen::eval {

std::size_t AnalogySet::questions() const {
  std::size_t n = 0;
  for (const auto& s : sections) n += s.questions.size();
  return n;
}

AnalogySet parse_analogy_set(std::string_view text, const std::string& path, bool strict) {
  AnalogySet set;
  set.path = path;
  if (text.starts_with("\xef\xbb\xbf")) text.remove_prefix(3);  // a UTF-8 byte order mark
  auto bad = [&](std::uint64_t line, std::string reason) {
    if (strict) throw ParseError(path, line, 0, reason);
    set.malformed.push_back({line, std::move(reason)});
  };
  std::uint64_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    // Lines end at '\n' (gensim reads the file in binary mode); a '\r' before it is whitespace.
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!valid_utf8(line)) {
      bad(line_no, "invalid UTF-8");
      continue;
    }
    if (line.starts_with(": ")) {
      std::size_t k = 0;
      while (k < line.size() && (line[k] == ':' || line[k] == ' ')) ++k;  // line.lstrip(': ')
      set.sections.push_back({std::string(strip_whitespace(line.substr(k))), line_no, {}});
      continue;
    }
    const auto words = split_whitespace(line);
    if (words.empty()) continue;  // blank line
    if (words.size() != 4) {
      bad(line_no, "expected a question of 4 words (a b c d) or a ': section' header, found " +
                       std::to_string(words.size()) + (words.size() == 1 ? " word" : " words"));
      continue;
    }
    if (set.sections.empty()) {
      bad(line_no, "a question before the first ': section' header");
      continue;
    }
    set.sections.back().questions.push_back(
        {std::string(words[0]), std::string(words[1]), std::string(words[2]), std::string(words[3]), line_no});
  }
  return set;
}

AnalogySet read_analogy_set(const std::string& path, bool strict) {
  return parse_analogy_set(detail::read_text_file(path), path, strict);
}

}  // namespace lumen::eval
