#pragma once
// A bounded max-heap keeping the k smallest (distance, id) pairs seen: the selection step of brute-force kNN.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace lumen::project::detail {

class TopK {
 public:
  explicit TopK(std::size_t k) : k_(k) { heap_.reserve(k); }
  void clear() { heap_.clear(); }
  // The distance a candidate must beat to enter.
  float bound() const { return heap_.size() < k_ ? std::numeric_limits<float>::infinity() : heap_.front().first; }
  void push(float dist, std::int32_t id) {
    if (heap_.size() < k_) {
      heap_.emplace_back(dist, id);
      std::push_heap(heap_.begin(), heap_.end());
    } else if (std::make_pair(dist, id) < heap_.front()) {
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.back() = {dist, id};
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
  // Writes the pairs nearest first (ties: lower id first) and empties the heap.
  void drain(std::int32_t* ids, float* dist) {
    std::sort_heap(heap_.begin(), heap_.end());
    for (std::size_t j = 0; j < heap_.size(); ++j) {
      ids[j] = heap_[j].second;
      dist[j] = heap_[j].first;
    }
    heap_.clear();
  }

 private:
  std::size_t k_;
  std::vector<std::pair<float, std::int32_t>> heap_;
};

}  // namespace lumen::project::detail
