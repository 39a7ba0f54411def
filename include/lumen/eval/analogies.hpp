#pragma once
// Scoring a table on an analogy benchmark exactly as gensim's KeyedVectors.evaluate_word_analogies does,
// with every question of a block scored through one matrix product.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/analogy_set.hpp"

namespace lumen::eval {

enum class AnalogyMethod { add, mul };  // 3CosAdd (word2vec, gensim), 3CosMul (Levy & Goldberg 2014)
AnalogyMethod parse_analogy_method(const std::string& name);  // "add" | "mul"; UsageError otherwise

struct AnalogyOptions {
  std::size_t restrict = 300000;  // allowed vocabulary: the first N rows (0: all), gensim's restrict_vocab
  bool case_insensitive = true;   // compare upper-cased words, first casing winning
  AnalogyMethod method = AnalogyMethod::add;
  bool exclude = true;                // the answer may not be one of the three inputs
  std::size_t semantic_sections = 5;  // the first N sections are semantic (questions-words), the rest syntactic
  std::size_t threads = 0;            // 0: lumen::default_threads()
  bool keep_predictions = false;      // fill AnalogyResult::predictions
  // Called now and then with (rows done, rows total) while the table is scanned.
  ProgressFn progress;
};

struct AnalogyTally {
  std::string name;
  std::size_t correct = 0;
  std::size_t answered = 0;  // questions with all four words in the allowed vocabulary
  std::size_t skipped = 0;   // questions with a word outside it
  double accuracy() const;   // correct / answered; NaN if nothing was answered
};

struct AnalogyPrediction {
  std::uint64_t line = 0;
  Id predicted = -1;  // the row of the answer given (-1: none)
  bool correct = false;
};

struct AnalogyResult {
  std::vector<AnalogyTally> sections;  // in file order
  AnalogyTally total{"Total accuracy"};
  AnalogyTally semantic{"semantic"}, syntactic{"syntactic"};
  std::size_t top_is_input = 0;                // answered questions whose best candidate, inputs allowed, is an input
  std::size_t rows = 0;                        // the size of the allowed vocabulary
  std::vector<AnalogyPrediction> predictions;  // answered questions in file order (keep_predictions)
};

// Throws InputError if no question has all four words in the allowed vocabulary.
AnalogyResult evaluate_analogies(const Table& table, const AnalogySet& set, const AnalogyOptions& options = {});

}  // namespace lumen::eval
