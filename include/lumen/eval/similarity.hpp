#pragma once
// Scoring a table on a word-similarity benchmark exactly as gensim's KeyedVectors.evaluate_word_pairs does
// (dummy4unknown=False: pairs with an unknown word are left out and counted).
#include <cstddef>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/eval/word_pairs.hpp"

namespace lumen::eval {

struct SimilarityOptions {
  std::size_t restrict = 300000;  // allowed vocabulary: the first N rows (0: all)
  bool case_insensitive = true;
};

struct SimilarityResult {
  double pearson = 0.0;      // between human scores and cosines (NaN if undefined: fewer than 2 pairs, constant)
  double spearman = 0.0;     // the same on average ranks
  std::size_t pairs = 0;     // pairs scored
  std::size_t oov = 0;       // pairs left out: a word outside the allowed vocabulary
  std::size_t rows = 0;      // the size of the allowed vocabulary
  double oov_ratio() const;  // oov / (pairs + oov), a fraction (gensim returns it as a percentage)
  std::vector<double> human, model;  // the scored pairs, in file order (model: cosine rounded to f32)
};

// Throws InputError if no pair has both words in the allowed vocabulary.
SimilarityResult evaluate_similarity(const Table& table, const WordPairSet& set, const SimilarityOptions& options = {});

}  // namespace lumen::eval
