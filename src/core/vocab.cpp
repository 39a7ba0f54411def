#include "lumen/core/vocab.hpp"

#include <algorithm>
#include <numeric>

#include "lumen/core/error.hpp"

namespace lumen {

Vocab Vocab::numbered(std::size_t n) {
  Vocab v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.add(std::to_string(i));
  return v;
}

void Vocab::reserve(std::size_t n) {
  tokens_.reserve(n);
  index_.reserve(n);
}

std::optional<Id> Vocab::add(std::string token, std::uint64_t count) {
  const Id id = static_cast<Id>(tokens_.size());
  auto [it, inserted] = index_.try_emplace(token, id);
  if (!inserted) return std::nullopt;
  tokens_.push_back(std::move(token));
  if (count != 0 && !has_counts_) {
    has_counts_ = true;
    counts_.assign(tokens_.size() - 1, 0);
  }
  if (has_counts_) counts_.push_back(count);
  return id;
}

bool Vocab::add_alias(std::string alias, Id id) {
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return false;
  return index_.try_emplace(std::move(alias), id).second;
}

std::optional<Id> Vocab::find(std::string_view token) const {
  auto it = index_.find(std::string(token));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

Id Vocab::require(std::string_view token) const {
  if (auto id = find(token)) return *id;
  throw UnknownTokenError(std::string(token), suggest(token));
}

namespace {
// Levenshtein distance over bytes, giving up (returning limit+1) once every cell exceeds limit.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t best = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      best = std::min(best, cur[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::vector<std::string> Vocab::suggest(std::string_view token, std::size_t max) const {
  const std::size_t limit = std::max<std::size_t>(2, token.size() / 3);
  std::vector<std::pair<std::size_t, Id>> found;
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    const std::size_t d = edit_distance(token, tokens_[i], limit);
    if (d <= limit) found.emplace_back(d, static_cast<Id>(i));
  }
  std::stable_sort(found.begin(), found.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < found.size() && out.size() < max; ++i) out.push_back(tokens_[found[i].second]);
  return out;
}

void Vocab::truncate(std::size_t n) {
  if (n >= tokens_.size()) return;
  for (std::size_t i = n; i < tokens_.size(); ++i) index_.erase(tokens_[i]);
  tokens_.resize(n);
  if (index_.size() > n)
    std::erase_if(index_, [n](const auto& kv) { return kv.second >= static_cast<Id>(n); });  // aliases
  if (has_counts_) counts_.resize(n);
}

}  // namespace lumen
