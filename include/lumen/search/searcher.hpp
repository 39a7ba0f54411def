#pragma once
// Exact similarity search over a table. A Searcher holds a reference to the table (keep it alive) and its
// row norms, computed once; there is no second, normalised copy of E (V,d): cosine divides by the cached norms.
// Rows may be f32, f16 or bf16; queries are f32 vectors of length d.
#include <cstddef>
#include <span>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/table.hpp"
#include "lumen/search/metric.hpp"
#include "lumen/search/neighbour.hpp"

namespace lumen::search {

struct SearchOptions {
  std::size_t k = 10;  // >= 1; more than the rows searched returns them all
  Metric metric = Metric::cosine;
  std::size_t restrict_rows = 0;  // search only rows [0, N) (frequency-sorted vocabularies); 0: all
  std::vector<Id> exclude;        // ids never returned (e.g. the query words)
  std::size_t threads = 0;        // 0: lumen::default_threads()
};

class Searcher {
 public:
  // Computes the row norms (one pass over E). threads 0: the default.
  explicit Searcher(const Table& table, std::size_t threads = 0);

  const Table& table() const { return *table_; }
  std::size_t V() const { return table_->V(); }
  std::size_t d() const { return table_->d(); }
  std::span<const float> norms() const { return norms_; }
  float norm(Id id) const;
  float max_norm() const { return max_norm_; }

  // Row `id` as f32 (d floats), whatever the storage type. Throws IdError for an id outside [0, V).
  std::vector<float> row(Id id) const;
  // Row `id` divided by its norm (a zero row stays zero).
  std::vector<float> unit_row(Id id) const;

  // Score of a query against one row (the same kernel and formula as the searches).
  float score(std::span<const float> q, Id id, Metric m) const;
  // Similarity (or distance, for euclidean) between rows a and b.
  float similarity(Id a, Id b, Metric m = Metric::cosine) const;
  // Scores of q against rows [0, out.size()); out.size() <= V. Multi-threaded streaming pass.
  void scores(std::span<const float> q, Metric m, std::span<float> out, std::size_t threads = 0) const;

  // The k nearest rows to q, nearest first; ties go to the lower id. One streaming pass over the rows.
  std::vector<Neighbour> search(std::span<const float> q, const SearchOptions& options) const;
  // The same for each row of Q (B,d) f32, through GEMM over blocks of rows; identical results to search().
  std::vector<std::vector<Neighbour>> search_batch(const Matrix& Q, const SearchOptions& options) const;
  // The same with ids left out per query: per_query[b] for row b of Q, on top of options.exclude (e.g. each query
  // word's own row, as gensim's most_similar leaves it out). per_query.size() is Q.rows(), or 0 for none
  // (UsageError otherwise). The k results are the k best of the rows not excluded, exactly as search() with those
  // exclusions.
  std::vector<std::vector<Neighbour>> search_batch(const Matrix& Q, const SearchOptions& options,
                                                   const std::vector<std::vector<Id>>& per_query) const;

 private:
  void check_query(std::span<const float> q) const;
  void raw_block(const float* q, Metric m, std::size_t begin, std::size_t n, float* out) const;
  const Table* table_;
  std::vector<float> norms_;  // (V)
  float max_norm_ = 0.0f;
};

// Similarity (or distance) between two free vectors of the same length.
float similarity(std::span<const float> a, std::span<const float> b, Metric m = Metric::cosine);

// Reference: every score with the generic kernels, then a full sort. Slow; for tests.
std::vector<Neighbour> brute_force(const Table& table, std::span<const float> q, const SearchOptions& options);

}  // namespace lumen::search
