#include "lumen/project/row_selection.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace lumen::project {

std::vector<Id> choose_rows(std::size_t V, const RowChoice& choice) {
  std::vector<Id> rows;
  std::unordered_set<Id> seen;
  auto add = [&](Id id) {
    if (seen.insert(id).second) rows.push_back(id);
  };
  if (choice.listed) {
    for (Id id : *choice.listed) add(id);
  } else {
    rows.resize(choice.top != 0 ? std::min(choice.top, V) : V);
    std::iota(rows.begin(), rows.end(), Id{0});
    seen.insert(rows.begin(), rows.end());
  }
  for (Id id : choice.highlight) add(id);
  return rows;
}

std::vector<std::uint8_t> highlight_mask(const std::vector<Id>& rows, const std::vector<Id>& highlight) {
  const std::unordered_set<Id> marked(highlight.begin(), highlight.end());
  std::vector<std::uint8_t> mask(rows.size(), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) mask[i] = marked.count(rows[i]) != 0 ? 1 : 0;
  return mask;
}

std::vector<std::int32_t> label_priority(const Vocab& vocab, const std::vector<Id>& rows) {
  std::vector<std::int32_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t x, std::int32_t y) {
    const Id ix = rows[static_cast<std::size_t>(x)], iy = rows[static_cast<std::size_t>(y)];
    if (vocab.has_counts() && vocab.count(ix) != vocab.count(iy)) return vocab.count(ix) > vocab.count(iy);
    return ix < iy;
  });
  return order;
}

Id find_listed_word(const Vocab& vocab, std::string_view word) {
  if (auto id = vocab.find(word)) return *id;
  constexpr std::string_view blanks = " \t\r\n";
  const std::size_t b = word.find_first_not_of(blanks);
  const std::string_view trimmed = b == std::string_view::npos ? std::string_view{} : word.substr(b);
  return vocab.require(trimmed.substr(0, trimmed.find_last_not_of(blanks) + 1));
}

}  // namespace lumen::project
