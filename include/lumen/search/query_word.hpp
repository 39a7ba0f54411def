#pragma once
// A word asked about (neighbours, similarity, analogy), resolved against a table: its row when the vocabulary has
// it; otherwise, when the table was read from a fastText model, the vector that model builds from the word's
// character n-grams, as `fasttext print-word-vectors` and gensim's FastTextKeyedVectors do. Such a word has no
// row, so it is never left out of the answers (gensim leaves out only the inputs it has in its vocabulary).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::search {

struct QueryWord {
  std::string word;
  std::optional<Id> id;       // its row; nullopt for a word outside the vocabulary
  std::vector<float> vector;  // (d) f32: the row, or the subword vector
};

// Throws UnknownTokenError (with close spellings) when the vocabulary lacks the word and the table has no
// subword model, or the model has no n-gram of it.
QueryWord lookup(const Table& table, std::string_view word);

// The neighbours of each query word, in one Searcher::search_batch (one GEMM pass), each word's own row left out of
// its answers unless keep_query (gensim's most_similar leaves it out; a word outside the vocabulary has no row to
// leave out). options.exclude applies to every word.
std::vector<std::vector<Neighbour>> neighbours_of(const Searcher& s, std::span<const QueryWord> words,
                                                  const SearchOptions& options, bool keep_query = false);

// Similarity (or distance) of two query words; for two rows exactly Searcher::similarity.
float similarity(const Searcher& s, const QueryWord& a, const QueryWord& b, Metric m = Metric::cosine);

// The query's Euclidean length; for a row exactly Searcher::norm.
float norm(const Searcher& s, const QueryWord& q);

// The parts of the cosine of two query words, to show cos(a, b) = a·b / (|a| |b|) with its numbers.
struct SimilarityParts {
  float cosine = 0, dot = 0, norm_a = 0, norm_b = 0;
};
SimilarityParts similarity_parts(const Searcher& s, const QueryWord& a, const QueryWord& b);

// The query's vector divided by its norm; for a row exactly Searcher::unit_row.
std::vector<float> unit_vector(const Searcher& s, const QueryWord& q);

}  // namespace lumen::search
