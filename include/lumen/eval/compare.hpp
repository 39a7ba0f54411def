#pragma once
// Two tables compared over the words they share (two trainings of one corpus, two seeds, tied vs untied, or an
// untied model's input table E and output head W): neighbour overlap@k, orthogonal Procrustes, linear CKA, and
// the words whose neighbourhoods changed most.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/eval/procrustes.hpp"

namespace lumen::eval {

// The words both vocabularies hold, in A's row order: a_rows[i] and b_rows[i] are the same word.
struct SharedVocab {
  std::vector<Id> a_rows, b_rows;
  std::size_t size() const { return a_rows.size(); }
};
SharedVocab shared_vocab(const Vocab& a, const Vocab& b);

struct CompareOptions {
  std::size_t k = 10;       // neighbours per word
  std::size_t top = 0;      // compare only the first `top` shared words (in A's order; 0: all)
  std::size_t moved = 10;   // how many of the most changed words to list
  std::size_t threads = 0;  // 0: the default
  // (stage, done, total): stage "neighbours A", "neighbours B" or "products".
  std::function<void(const std::string&, std::size_t, std::size_t)> progress;
};

struct NamedNeighbour {
  std::string word;
  float cosine = 0;
};

struct MovedWord {
  std::string word;
  Id a_row = 0, b_row = 0;
  double overlap = 0;
  std::vector<NamedNeighbour> in_a, in_b;  // its k nearest shared words in each table
};

struct Comparison {
  std::size_t V_a = 0, V_b = 0, d_a = 0, d_b = 0;
  std::size_t shared = 0;  // words in both vocabularies
  std::size_t n = 0;       // words compared (shared, or the first `top` of them)
  std::size_t k = 0;
  std::vector<double> overlap;  // (n) per word, in A's order
  double mean_overlap = 0, median_overlap = 0;
  std::vector<std::size_t> histogram;    // (k+1): words whose overlap is j/k
  std::optional<Procrustes> procrustes;  // absent when d differs
  std::string procrustes_skipped;        // why it is absent
  double cka = 0;
  std::vector<MovedWord> moved;  // lowest overlap first (ties: the more frequent, lower A row, first)
  double seconds = 0;
};

// A and B any dtype. InputError when they share no words or fewer than k + 1; UsageError for k = 0.
Comparison compare_tables(const Table& a, const Table& b, const CompareOptions& options);

}  // namespace lumen::eval
