#include "lumen/search/query_word.hpp"

#include <cmath>

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

float similarity(const Searcher& s, const QueryWord& a, const QueryWord& b, Metric m) {
  if (b.id) return s.score(a.vector, *b.id, m);  // with a.id too: Searcher::similarity(a, b) itself
  if (a.id) return s.score(b.vector, *a.id, m);  // every metric is symmetric
  return similarity(a.vector, b.vector, m);
}

std::vector<float> unit_vector(const Searcher& s, const QueryWord& q) {
  if (q.id) return s.unit_row(*q.id);
  std::vector<float> v = q.vector;
  double n2 = 0;
  for (float x : v) n2 += static_cast<double>(x) * x;
  const auto n = static_cast<float>(std::sqrt(n2));
  if (n > 0.0f)
    for (float& x : v) x /= n;
  return v;
}

}  // namespace lumen::search
