#pragma once
// The k best (key, id) pairs seen so far, the worst at the front of a heap: a row is admitted only if it
// ranks before the current worst, so most rows of a scan cost one comparison.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "lumen/search/metric.hpp"
#include "lumen/search/neighbour.hpp"

namespace lumen::search::detail {

struct Entry {
  float key;
  float score;
  Id id;
};

inline bool before(const Entry& a, const Entry& b) { return ranks_before(a.key, a.id, b.key, b.id); }

class TopK {
 public:
  explicit TopK(std::size_t k) : k_(k) { heap_.reserve(k); }
  bool admits(float key, Id id) const {
    return heap_.size() < k_ || ranks_before(key, id, heap_.front().key, heap_.front().id);
  }
  void push(const Entry& e) {
    if (heap_.size() < k_) {
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), before);
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), before);
      heap_.back() = e;
      std::push_heap(heap_.begin(), heap_.end(), before);
    }
  }
  const std::vector<Entry>& entries() const { return heap_; }

 private:
  std::size_t k_;
  std::vector<Entry> heap_;  // heap by before(): the front ranks last
};

// The best k of `all`, nearest first, as Neighbours.
inline std::vector<Neighbour> best(std::vector<Entry> all, std::size_t k) {
  const std::size_t n = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(), before);
  std::vector<Neighbour> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back({all[i].id, all[i].score});
  return out;
}

}  // namespace lumen::search::detail
