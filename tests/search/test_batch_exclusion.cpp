// Batch search with a list of ids left out per query (each query word's own row, as neighbours leaves it out):
// through GEMM (8 queries or more) and the streaming fallback, every query's answers equal the reference's with
// that query's exclusions added to the shared ones.
#include <gtest/gtest.h>

#include "lumen/core/error.hpp"
#include "lumen/search/searcher.hpp"
#include "test_helpers.hpp"

using namespace lumen;
using namespace lumen::search;

TEST(SearchBatchExclusion, EachQueryLeavesOutItsOwnIds) {
  const Table t = test::random_table(3000, 24, DType::f32, 17);
  const Searcher s(t);
  for (std::size_t B : {3u, 20u}) {  // the streaming fallback and GEMM
    Matrix Q(B, 24);
    std::vector<std::vector<Id>> exclude(B);
    for (std::size_t b = 0; b < B; ++b) {
      const Id self = static_cast<Id>(b * 131 + 7);
      const auto q = s.row(self);
      std::copy(q.begin(), q.end(), Q.row_mut(b).begin());
      exclude[b] = {self};
      if (b % 3 == 0) exclude[b].push_back(static_cast<Id>(b));  // a second id, and an id shared with options
    }
    for (Metric m : {Metric::cosine, Metric::dot, Metric::euclidean}) {
      SCOPED_TRACE(std::string(metric_name(m)) + " B=" + std::to_string(B));
      SearchOptions o;
      o.k = 6;
      o.metric = m;
      o.exclude = {0, 2};
      const auto got = s.search_batch(Q, o, exclude);
      ASSERT_EQ(got.size(), B);
      for (std::size_t b = 0; b < B; ++b) {
        SearchOptions ob = o;
        ob.exclude.insert(ob.exclude.end(), exclude[b].begin(), exclude[b].end());
        const auto want = brute_force(t, Q.row(b), ob);
        ASSERT_EQ(got[b].size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
          EXPECT_EQ(got[b][i].id, want[i].id) << "query " << b << " rank " << i;
          EXPECT_EQ(got[b][i].score, want[i].score) << "query " << b << " rank " << i;
        }
        for (const auto& n : got[b]) EXPECT_NE(n.id, exclude[b][0]);
      }
    }
  }
}

TEST(SearchBatchExclusion, OneListPerQueryOrNone) {
  const Table t = test::random_table(100, 8, DType::f32, 3);
  const Searcher s(t);
  Matrix Q(4, 8);
  EXPECT_THROW(s.search_batch(Q, SearchOptions{}, std::vector<std::vector<Id>>(3)), UsageError);
  EXPECT_EQ(s.search_batch(Q, SearchOptions{}, {}).size(), 4u);
}
