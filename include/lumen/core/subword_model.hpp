#pragma once
// Vectors for words outside a table's vocabulary. A fastText model builds any word's vector from the rows of its
// character n-grams (fastText and gensim answer queries for unseen words this way); a Table read from such a
// model keeps it (Table::subwords), so every face (CLI, server) can look up those words. Other formats have none.
#include <span>
#include <string_view>

namespace lumen {

class SubwordModel {
 public:
  SubwordModel() = default;
  SubwordModel(const SubwordModel&) = default;
  SubwordModel(SubwordModel&&) = default;
  SubwordModel& operator=(const SubwordModel&) = default;
  SubwordModel& operator=(SubwordModel&&) = default;
  virtual ~SubwordModel() = default;

  // Writes the word's vector into out (d floats) and returns true; false when the model has nothing to build it
  // from (no n-gram of the word has a row), out then unspecified.
  virtual bool subword_vector(std::string_view word, std::span<float> out) const = 0;
};

}  // namespace lumen
