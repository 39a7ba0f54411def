#pragma once
// An analogy benchmark in the questions-words format (Mikolov et al. 2013): ": section" header lines, then
// one question "a b c d" per line, meaning a : b :: c : d (d is the expected answer).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/eval/malformed_line.hpp"

namespace lumen::eval {

struct AnalogyQuestion {
  std::string a, b, c, d;  // as written in the file (case is folded at evaluation time)
  std::uint64_t line = 0;  // 1-based
};

struct AnalogySection {
  std::string name;  // the header without ": " (gensim: line.lstrip(': ').strip())
  std::uint64_t line = 0;
  std::vector<AnalogyQuestion> questions;
};

struct AnalogySet {
  std::string path;
  std::vector<AnalogySection> sections;  // in file order, empty sections kept (gensim keeps them)
  std::vector<MalformedLine> malformed;  // skipped lines (never present when read with strict)
  std::size_t questions() const;
};

// Parses the text of an analogy file. A header is a line starting with ": " (as gensim); a question is a line of
// exactly four whitespace-separated words. Blank lines are ignored. Other lines (a wrong word count, a question
// before the first header, invalid UTF-8) are malformed: recorded with their line number, or, with `strict`,
// a ParseError naming `path` and the line.
AnalogySet parse_analogy_set(std::string_view text, const std::string& path, bool strict = false);

// Reads and parses a file (IoError if it cannot be read).
AnalogySet read_analogy_set(const std::string& path, bool strict = false);

}  // namespace lumen::eval
