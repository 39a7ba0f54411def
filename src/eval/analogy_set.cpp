#include "lumen/eval/analogy_set.hpp"

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/core/text_fold.hpp"
#include "text_lines.hpp"

namespace lumen::eval {

std::size_t AnalogySet::questions() const {
  std::size_t n = 0;
  for (const auto& s : sections) n += s.questions.size();
  return n;
}

AnalogySet parse_analogy_set(std::string_view text, const std::string& path, bool strict) {
  AnalogySet set;
  set.path = path;
  // Lines end at '\n' (gensim reads the file in binary mode); a '\r' before it is whitespace.
  detail::BenchmarkLines lines(text, false, path, strict, set.malformed);
  std::string_view line;
  while (lines.next(line)) {
    const std::uint64_t line_no = lines.number();
    if (line.starts_with(": ")) {
      std::size_t k = 0;
      while (k < line.size() && (line[k] == ':' || line[k] == ' ')) ++k;  // line.lstrip(': ')
      set.sections.push_back({std::string(strip_whitespace(line.substr(k))), line_no, {}});
      continue;
    }
    const auto words = split_whitespace(line);
    if (words.empty()) continue;  // blank line
    if (words.size() != 4) {
      lines.malformed("expected a question of 4 words (a b c d) or a ': section' header, found " +
                      std::to_string(words.size()) + (words.size() == 1 ? " word" : " words"));
      continue;
    }
    if (set.sections.empty()) {
      lines.malformed("a question before the first ': section' header");
      continue;
    }
    set.sections.back().questions.push_back(
        {std::string(words[0]), std::string(words[1]), std::string(words[2]), std::string(words[3]), line_no});
  }
  return set;
}

AnalogySet read_analogy_set(const std::string& path, bool strict) {
  return parse_analogy_set(read_file(path), path, strict);
}

}  // namespace lumen::eval
