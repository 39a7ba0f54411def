#pragma once
// A word-similarity benchmark (WordSim-353, SimLex-999 layout): lines "w1<TAB>w2<TAB>score", '#' comment lines.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/eval/malformed_line.hpp"

namespace lumen::eval {

struct WordPair {
  std::string w1, w2;      // as written (gensim does not strip them: "cat " is not "cat")
  double score = 0.0;      // the human judgement
  std::uint64_t line = 0;  // 1-based
};

struct WordPairSet {
  std::string path;
  std::vector<WordPair> pairs;
  std::vector<MalformedLine> malformed;
};

// Parses the text of a pairs file as gensim's evaluate_word_pairs reads it: lines end at \n, \r or \r\n;
// lines starting with '#' are comments; a pair is exactly three tab-separated fields, the third a number
// (surrounding whitespace allowed, as Python's float()). Blank lines are ignored; anything else is malformed
// (recorded with its line number, or with `strict` a ParseError).
WordPairSet parse_word_pairs(std::string_view text, const std::string& path, bool strict = false);

WordPairSet read_word_pairs(const std::string& path, bool strict = false);

}  // namespace lumen::eval
