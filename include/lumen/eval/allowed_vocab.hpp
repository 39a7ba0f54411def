#pragma once
// The words a benchmark may use: the first `restrict` rows of the table, compared case-insensitively by
// upper-casing with the first casing winning (gensim's ok_vocab: with "Paris" at row 10 and "paris" at
// row 90, PARIS means row 10).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lumen/core/vocab.hpp"

namespace lumen::eval {

class AllowedVocab {
 public:
  // restrict = 0: every row.
  AllowedVocab(const Vocab& vocab, std::size_t restrict, bool case_insensitive);

  // The row a benchmark word means, or nullopt if it is outside the allowed vocabulary.
  std::optional<Id> find(std::string_view word) const;
  // The same for a word already folded (fold(word)).
  std::optional<Id> find_folded(const std::string& folded) const;
  // The comparison form of a word: its upper case (case-insensitive) or itself. Invalid UTF-8 is kept as is.
  std::string fold(std::string_view word) const;

  std::size_t rows() const { return rows_; }  // candidates are rows [0, rows())
  bool case_insensitive() const { return case_insensitive_; }

 private:
  const Vocab* vocab_;
  std::size_t rows_;
  bool case_insensitive_;
  std::unordered_map<std::string, Id> folded_;  // upper case -> first row with it (case-insensitive only)
};

}  // namespace lumen::eval
