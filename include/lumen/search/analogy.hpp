#pragma once
// Vector arithmetic over a table: a : b :: c : ? (king - man + woman ~ queen), the odd one out, and
// the similarity of two words. Semantics follow gensim's KeyedVectors, so results can be compared:
//   3CosAdd = most_similar(positive=[b, c], negative=[a]): unit(unit(b) - unit(a) + unit(c)), cosine to every row;
//   3CosMul = most_similar_cosmul(positive=[b, c], negative=[a]) (Levy & Goldberg 2014):
//             cos'(x,b) cos'(x,c) / (cos'(x,a) + 1e-6), with cos' = (1 + cos) / 2 shifted into [0, 1];
//   doesnt_match: the word whose unit vector is least similar to the unit mean of the unit vectors.
// The standard evaluation excludes a, b and c from the answers; without that exclusion the nearest word is
// very often one of the inputs (Nissim, van Noord & van der Goot 2020), so exclude_inputs = false shows it.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "lumen/search/neighbour.hpp"
#include "lumen/search/query_word.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::search {

enum class AnalogyMethod { add, mul };
std::string_view analogy_method_name(AnalogyMethod m);
AnalogyMethod parse_analogy_method(std::string_view name);  // "add"/"3cosadd", "mul"/"3cosmul"; UsageError

struct AnalogyOptions {
  AnalogyMethod method = AnalogyMethod::add;
  std::size_t k = 10;  // >= 1; more than the rows that can answer returns them all
  bool exclude_inputs = true;
  std::size_t restrict_rows = 0;  // answers only from rows [0, N); 0: all
  std::size_t threads = 0;
};

struct AnalogyResult {
  std::vector<Neighbour> answers;   // best first; score: cosine (add) or the 3CosMul ratio (mul)
  std::optional<std::size_t> rank;  // 1-based rank of the expected answer, if one was asked for; nullopt if
                                    // it cannot be an answer (excluded as an input, or outside restrict)
};

// a : b :: c : ?  Ids must be rows of the searcher's table (IdError otherwise).
AnalogyResult analogy(const Searcher& s, Id a, Id b, Id c, const AnalogyOptions& options,
                      std::optional<Id> expected = std::nullopt);

// The same for query words, which may lie outside the vocabulary (a fastText model's subword vectors): only the
// inputs that are rows can be excluded from the answers, as in gensim.
AnalogyResult analogy(const Searcher& s, const QueryWord& a, const QueryWord& b, const QueryWord& c,
                      const AnalogyOptions& options, std::optional<Id> expected = std::nullopt);

// The query vector of 3CosAdd: unit(unit(b) - unit(a) + unit(c)) (d).
std::vector<float> analogy_vector(const Searcher& s, Id a, Id b, Id c);

struct OddOneOut {
  std::optional<Id> id;                // the word that doesn't match; nullopt when the scores are NaN
  std::vector<Neighbour> by_distance;  // every input with its cosine to the mean, least similar first
};
// Needs at least two ids (check_odd_one_out_count; one word is no question). An input row holding NaN or Inf has
// no direction, so the mean and every cosine to it are NaN: the scores are NaN and no word is picked (nullopt).
OddOneOut doesnt_match(const Searcher& s, const std::vector<Id>& ids);
// UsageError unless n >= 2: what the faces call before loading a table, so a bad question fails at once.
void check_odd_one_out_count(std::size_t n);

}  // namespace lumen::search
