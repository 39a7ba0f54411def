#pragma once
// Two tables compared over the words they share (two trainings of one corpus, two seeds, tied vs untied, or an
// untied model's input table E and output head W): neighbour overlap@k, orthogonal Procrustes, linear CKA, and
// the words whose neighbourhoods changed most.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/procrustes.hpp"

namespace lumen::eval {

// The words both vocabularies hold, in A's row order: a_rows[i] and b_rows[i] are the same word.
struct SharedVocab {
  std::vector<Id> a_rows, b_rows;
  std::size_t size() const { return a_rows.size(); }
};
SharedVocab shared_vocab(const Vocab& a, const Vocab& b);

// Above this many compared words, an unset CompareOptions::sample estimates the overlap from kAutoSample of them:
// exact lists for every word of two 50,000-word tables are ~3 TFLOP, minutes on a laptop.
inline constexpr std::size_t kAutoSampleAbove = 10000;
inline constexpr std::size_t kAutoSample = 2000;
inline constexpr std::size_t kNamedLeftOut = 5;

struct CompareOptions {
  std::size_t k = 10;   // neighbours per word
  std::size_t top = 0;  // compare only the first `top` shared words (in A's order; 0: all)
  // Whose neighbour lists are compared: 0 every compared word; N a random N of them (drawn with `seed`), so the
  // mean overlap is an estimate with a standard error. Unset: every word up to kAutoSampleAbove, else kAutoSample.
  // The neighbours are always searched among every compared word, and Procrustes and CKA use every one.
  std::optional<std::size_t> sample;
  std::uint64_t seed = 1;
  std::size_t moved = 10;   // how many of the most changed words to list
  std::size_t threads = 0;  // 0: the default
  // (stage, done, total): stage "neighbours A", "neighbours B" or "products".
  ProgressFn progress;
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
  // Shared words left out because their row in A or B holds a NaN or an infinity (Procrustes' SVD and the
  // cosines would be undefined), and the first kNamedLeftOut of them.
  std::size_t non_finite = 0;
  std::vector<std::string> non_finite_words;
  std::size_t n = 0;  // words compared (the finite shared ones, or the first `top` of them)
  std::size_t k = 0;
  std::size_t queries = 0;      // words whose neighbour lists were compared: n, or a sample of n
  bool sampled = false;         // queries < n: the overlap figures are estimates
  std::uint64_t seed = 0;       // the sample's seed
  std::vector<double> overlap;  // (queries) per compared word, in A's order
  double mean_overlap = 0, median_overlap = 0;
  double overlap_stderr = 0;             // of mean_overlap, when sampled (finite-population corrected); 0 otherwise
  std::vector<std::size_t> histogram;    // (k+1): compared words whose overlap is j/k
  std::optional<Procrustes> procrustes;  // absent when d differs
  std::string procrustes_skipped;        // why it is absent
  double cka = 0;
  std::vector<MovedWord> moved;  // lowest overlap first (ties: the more frequent, lower A row, first)
  double seconds = 0;
};

// A and B any dtype. InputError when they share no words or fewer than k + 1; UsageError for k = 0 or a sample
// of 1 word.
Comparison compare_tables(const Table& a, const Table& b, const CompareOptions& options);

}  // namespace lumen::eval
