#pragma once
// Approximate neighbours for large tables: an HNSW graph (Malkov & Yashunin 2018) from Debian's hnswlib.
// The graph keeps its own f32 copy of the rows it indexes (unit rows for cosine), because hnswlib computes
// distances on the vectors it stores; the candidates it finds are rescored with the exact Searcher, so the
// scores returned are exact and only the choice of rows is approximate.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/neighbour.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::search {

struct HnswOptions {
  std::size_t M = 16;                 // graph degree (2M on the bottom layer)
  std::size_t ef_construction = 200;  // candidate list while building
  std::uint64_t seed = 100;           // level assignment
  // Called now and then while building with (rows indexed, rows in all).
  ProgressFn on_progress;  // stage "HNSW index"
};

class HnswIndex {
 public:
  // Indexes rows [0, rows) of the searcher's table (0: all). One thread: Debian's hnswlib (0.6) races in
  // concurrent addPoint (AddressSanitizer finds a heap overflow in searchBaseLayer).
  static HnswIndex build(const Searcher& s, Metric metric, std::size_t rows = 0, const HnswOptions& options = {});
  // Loads an index saved by save(); checks it was built for this table (row count, d, metric and a few rows):
  // InputError if not, ParseError if the file is not an index.
  static HnswIndex load(const std::string& path, const Searcher& s, Metric metric, std::size_t rows = 0);
  void save(const std::string& path) const;  // through lumen::AtomicFile

  HnswIndex(HnswIndex&&) noexcept;
  HnswIndex& operator=(HnswIndex&&) noexcept;
  ~HnswIndex();

  Metric metric() const { return metric_; }
  std::size_t size() const;  // rows indexed

  // The k nearest indexed rows to q found by the graph, nearest first, with exact scores; `ef` >= k is the
  // search breadth (larger: better recall, slower); 0: max(64, 2k). Excluded ids are skipped.
  std::vector<Neighbour> search(std::span<const float> q, std::size_t k, const std::vector<Id>& exclude = {},
                                std::size_t ef = 0) const;

 private:
  struct Impl;
  HnswIndex(const Searcher& s, Metric m, std::unique_ptr<Impl> impl);
  const Searcher* searcher_;
  Metric metric_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lumen::search
