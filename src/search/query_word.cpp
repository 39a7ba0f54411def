#include "lumen/search/query_word.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen::search {

QueryWord lookup(const Table& table, std::string_view word) {
  QueryWord q{std::string(word), table.vocab.find(word), std::vector<float>(table.d())};
  if (q.id) {
    table.E.row_f32(static_cast<std::size_t>(*q.id), q.vector.data());
    return q;
  }
  if (table.subwords && table.subwords->subword_vector(word, q.vector)) return q;
  (void)table.vocab.require(word);  // throws UnknownTokenError with the close spellings
  throw UnknownTokenError(std::string(word), {});
}

std::vector<std::vector<Neighbour>> neighbours_of(const Searcher& s, std::span<const QueryWord> words,
                                                  const SearchOptions& options, bool keep_query) {
  Matrix Q(words.size(), s.d());  // (B, d)
  std::vector<std::vector<Id>> own(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].vector.size() != s.d())
      throw UsageError(fmt::format("query '{}' has {} dimensions, the table has d = {}", words[i].word,
                                   words[i].vector.size(), s.d()));
    std::copy(words[i].vector.begin(), words[i].vector.end(), Q.row_mut(i).data());
    if (!keep_query && words[i].id) own[i].push_back(*words[i].id);
  }
  return s.search_batch(Q, options, own);
}

float similarity(const Searcher& s, const QueryWord& a, const QueryWord& b, Metric m) {
  if (b.id) return s.score(a.vector, *b.id, m);  // with a.id too: Searcher::similarity(a, b) itself
  if (a.id) return s.score(b.vector, *a.id, m);  // every metric is symmetric
  return similarity(a.vector, b.vector, m);
}

float norm(const Searcher& s, const QueryWord& q) {
  if (q.id) return s.norm(*q.id);
  double n2 = 0;
  for (float x : q.vector) n2 += static_cast<double>(x) * x;
  return static_cast<float>(std::sqrt(n2));
}

SimilarityParts similarity_parts(const Searcher& s, const QueryWord& a, const QueryWord& b) {
  return {similarity(s, a, b, Metric::cosine), similarity(s, a, b, Metric::dot), norm(s, a), norm(s, b)};
}

std::vector<float> unit_vector(const Searcher& s, const QueryWord& q) {
  if (q.id) return s.unit_row(*q.id);
  std::vector<float> v = q.vector;
  const float n = norm(s, q);
  if (n > 0.0f)
    for (float& x : v) x /= n;
  return v;
}

}  // namespace lumen::search
