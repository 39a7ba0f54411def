#include "lumen/search/analogy.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "topk.hpp"

namespace lumen::search {
namespace {

void normalise(std::vector<float>& v) {
  double n2 = 0;
  for (float x : v) n2 += static_cast<double>(x) * x;
  const float n = static_cast<float>(std::sqrt(n2));
  if (n > 0.0f)
    for (float& x : v) x /= n;
}

// 1-based rank of `id` among rows [0, n) not excluded, by key; nullopt if id is excluded or outside.
std::optional<std::size_t> rank_of(std::span<const float> keys, Id id, const std::vector<Id>& exclude) {
  const auto n = keys.size();
  if (id < 0 || static_cast<std::size_t>(id) >= n) return std::nullopt;
  if (std::find(exclude.begin(), exclude.end(), id) != exclude.end()) return std::nullopt;
  const float kid = keys[static_cast<std::size_t>(id)];
  std::size_t better = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const Id rid = static_cast<Id>(r);
    if (rid == id || std::find(exclude.begin(), exclude.end(), rid) != exclude.end()) continue;
    if (ranks_before(keys[r], rid, kid, id)) ++better;
  }
  return better + 1;
}

}  // namespace

std::string_view analogy_method_name(AnalogyMethod m) { return m == AnalogyMethod::add ? "add" : "mul"; }

AnalogyMethod parse_analogy_method(std::string_view name) {
  if (name == "add" || name == "3cosadd") return AnalogyMethod::add;
  if (name == "mul" || name == "3cosmul") return AnalogyMethod::mul;
  throw UsageError(fmt::format("unknown analogy method '{}' (expected add or mul)", name));
}

namespace {

// 3CosAdd's query from the three unit vectors: unit(ub - ua + uc).
std::vector<float> add_query(std::vector<float> ub, const std::vector<float>& ua, const std::vector<float>& uc) {
  // gensim: (ub - ua + uc) / 3, then unit length; the division by 3 cancels in the normalisation.
  for (std::size_t i = 0; i < ub.size(); ++i) ub[i] = ub[i] - ua[i] + uc[i];
  normalise(ub);
  return ub;
}

// a : b :: c : ? from the inputs' unit vectors; `exclude` holds the inputs that are rows (when excluding).
AnalogyResult solve(const Searcher& s, const std::vector<float>& ua, const std::vector<float>& ub,
                    const std::vector<float>& uc, const std::vector<Id>& exclude, const AnalogyOptions& o,
                    std::optional<Id> expected) {
  if (o.k == 0) throw UsageError("k must be at least 1");
  const std::size_t n = o.restrict_rows == 0 ? s.V() : std::min(o.restrict_rows, s.V());
  AnalogyResult result;

  if (o.method == AnalogyMethod::add) {
    const auto v = add_query(ub, ua, uc);
    SearchOptions so;
    so.k = o.k;
    so.metric = Metric::cosine;
    so.restrict_rows = n;
    so.exclude = exclude;
    so.threads = o.threads;
    result.answers = s.search(v, so);
    if (expected) {
      std::vector<float> keys(n);
      s.scores(v, Metric::cosine, keys, o.threads);
      for (float& x : keys) x = rank_key(Metric::cosine, x);
      result.rank = rank_of(keys, *expected, exclude);
    }
    return result;
  }

  // 3CosMul: three cosine passes, combined per row.
  std::vector<float> ca(n), cb(n), cc(n);
  s.scores(ua, Metric::cosine, ca, o.threads);
  s.scores(ub, Metric::cosine, cb, o.threads);
  s.scores(uc, Metric::cosine, cc, o.threads);
  std::vector<float>& keys = ca;
  detail::TopK top(std::min(o.k, n));  // a k beyond the rows asks for them all, never sizes a heap of k
  for (std::size_t r = 0; r < n; ++r) {
    const float score = ((1.0f + cb[r]) / 2.0f) * ((1.0f + cc[r]) / 2.0f) / ((1.0f + ca[r]) / 2.0f + 1e-6f);
    keys[r] = rank_key(Metric::cosine, score);
    const Id id = static_cast<Id>(r);
    if (top.admits(keys[r], id) && std::find(exclude.begin(), exclude.end(), id) == exclude.end())
      top.push({keys[r], score, id});
  }
  result.answers = detail::best(top.entries(), o.k);
  if (expected) result.rank = rank_of(keys, *expected, exclude);
  return result;
}

}  // namespace

std::vector<float> analogy_vector(const Searcher& s, Id a, Id b, Id c) {
  return add_query(s.unit_row(b), s.unit_row(a), s.unit_row(c));
}

AnalogyResult analogy(const Searcher& s, Id a, Id b, Id c, const AnalogyOptions& o, std::optional<Id> expected) {
  for (Id id : {a, b, c}) (void)s.norm(id);  // IdError for an id outside the table
  std::vector<Id> exclude;
  if (o.exclude_inputs) exclude = {a, b, c};
  return solve(s, s.unit_row(a), s.unit_row(b), s.unit_row(c), exclude, o, expected);
}

AnalogyResult analogy(const Searcher& s, const QueryWord& a, const QueryWord& b, const QueryWord& c,
                      const AnalogyOptions& o, std::optional<Id> expected) {
  std::vector<Id> exclude;
  for (const QueryWord* q : {&a, &b, &c}) {
    if (q->vector.size() != s.d())
      throw InputError(fmt::format("'{}' has {} dimensions, the table has d = {}", q->word, q->vector.size(), s.d()));
    if (q->id && o.exclude_inputs) exclude.push_back(*q->id);
  }
  return solve(s, unit_vector(s, a), unit_vector(s, b), unit_vector(s, c), exclude, o, expected);
}

void check_odd_one_out_count(std::size_t n) {
  if (n < 2) throw UsageError(fmt::format("doesnt-match needs at least two words, got {}", n));
}

OddOneOut doesnt_match(const Searcher& s, const std::vector<Id>& ids) {
  check_odd_one_out_count(ids.size());
  std::vector<std::vector<float>> units;
  units.reserve(ids.size());
  for (Id id : ids) units.push_back(s.unit_row(id));
  std::vector<float> mean(s.d(), 0.0f);
  for (const auto& u : units)
    for (std::size_t i = 0; i < mean.size(); ++i) mean[i] += u[i];
  normalise(mean);
  OddOneOut out;
  for (std::size_t j = 0; j < ids.size(); ++j)
    out.by_distance.push_back({ids[j], similarity(units[j], mean, Metric::dot)});
  // Least similar first (the key is minus the score); ties: lower id first; NaN last.
  std::stable_sort(out.by_distance.begin(), out.by_distance.end(),
                   [](const Neighbour& x, const Neighbour& y) { return ranks_before(-x.score, x.id, -y.score, y.id); });
  // A row with NaN or Inf makes the mean, and so every score, NaN: then no word can be picked.
  if (!std::isnan(out.by_distance.front().score)) out.id = out.by_distance.front().id;
  return out;
}

}  // namespace lumen::search
