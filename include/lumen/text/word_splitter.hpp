#pragma once
// The word splitter the trainers read a corpus with (not a model's tokenizer: that is text/tokenizer.hpp). The corpus
// reader splits on ASCII whitespace (as word2vec and fastText do); each whitespace-separated word then goes through
// here: optional lower-casing, optional punctuation splitting. With both off a word is a token unchanged, so a
// pre-tokenised corpus trains as it is.
#include <string>
#include <string_view>
#include <vector>

#include "lumen/core/text_fold.hpp"

namespace lumen::text {

struct WordSplitOptions {
  // Lower-case letters: ASCII, Latin-1 Supplement, Latin Extended-A (pairs), Greek and Cyrillic basic blocks.
  bool lower = false;
  // Split ASCII punctuation off into tokens of its own. An apostrophe or a hyphen between two letters or
  // digits stays inside the word ("don't", "term-end"); runs of the same mark stay one token ("--", "...").
  bool split_punct = false;
};

class WordSplitter {
 public:
  explicit WordSplitter(WordSplitOptions options = {}) : options_(options) {}
  const WordSplitOptions& options() const { return options_; }

  // Appends the tokens of one whitespace-free word to `arena`, calling emit(begin, length) for each
  // (offsets into arena). No allocation once the arena has grown.
  template <class Emit>
  void split(std::string_view word, std::string& arena, Emit&& emit) const {
    if (!options_.lower && !options_.split_punct) {
      const std::size_t b = arena.size();
      arena.append(word);
      emit(b, word.size());
      return;
    }
    split_slow(word, arena, [&](std::size_t b, std::size_t n) { emit(b, n); });
  }

  // Convenience: the tokens of a whole text (splits on whitespace first). For tests and small inputs.
  std::vector<std::string> split_text(std::string_view text) const;

 private:
  template <class Emit>
  void split_slow(std::string_view word, std::string& arena, Emit&& emit) const;
  WordSplitOptions options_;
};

bool is_ascii_space(char c);  // the corpus reader's whitespace: space, \n, \t, \r, \v, \f
bool is_ascii_punct(char c);

template <class Emit>
void WordSplitter::split_slow(std::string_view w, std::string& arena, Emit&& emit) const {
  auto alnum_at = [&](std::size_t i) {
    if (i >= w.size()) return false;
    const auto c = static_cast<unsigned char>(w[i]);
    return c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  };
  auto put = [&](std::size_t b, std::size_t e) {
    if (e <= b) return;
    const std::size_t start = arena.size();
    if (options_.lower) append_lower_case(w.substr(b, e - b), arena);
    else arena.append(w.substr(b, e - b));
    emit(start, arena.size() - start);
  };
  if (!options_.split_punct) {
    put(0, w.size());
    return;
  }
  std::size_t start = 0, i = 0;
  while (i < w.size()) {
    const char c = w[i];
    if (!is_ascii_punct(c)) {
      ++i;
      continue;
    }
    if ((c == '\'' || c == '-') && i > start && alnum_at(i - 1) && alnum_at(i + 1)) {
      ++i;  // inside a word: don't, term-end
      continue;
    }
    put(start, i);
    std::size_t j = i + 1;
    while (j < w.size() && w[j] == c) ++j;  // "--", "...", "``"
    put(i, j);
    start = i = j;
  }
  put(start, w.size());
}

}  // namespace lumen::text
