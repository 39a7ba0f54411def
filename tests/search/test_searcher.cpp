// Exact search: the streaming pass and the GEMM batch give the brute-force reference's ids and scores exactly,
// for every metric, dtype and ISA variant; exclusions, restrict, ties and errors.
#include <gtest/gtest.h>

#include <cmath>

#include "lumen/core/error.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/search/searcher.hpp"
#include "test_helpers.hpp"

using namespace lumen;
using namespace lumen::search;

namespace test_searcher {

struct IsaGuard {
  Isa saved = active_isa();
  ~IsaGuard() { force_isa(saved); }
};

std::vector<float> query_near(const Searcher& s, Id id, std::uint64_t seed) {
  std::vector<float> q = s.row(id);
  Rng r(seed);
  for (auto& x : q) x += 0.3f * static_cast<float>(r.normal());
  return q;
}

void expect_same(const std::vector<Neighbour>& got, const std::vector<Neighbour>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].id, want[i].id) << "rank " << i;
    EXPECT_EQ(got[i].score, want[i].score) << "rank " << i;
  }
}

TEST(Searcher, MatchesBruteForceEveryMetricDtypeIsa) {
  IsaGuard guard;
  for (DType dt : {DType::f32, DType::f16, DType::bf16}) {
    // 9000 rows: more than one thread's share, and not a multiple of the scan block.
    const Table t = test::random_table(9000, 37, dt, 11);
    for (Isa isa : available_isas()) {
      force_isa(isa);
      const Searcher s(t, 2);
      for (Metric m : {Metric::cosine, Metric::dot, Metric::euclidean}) {
        SCOPED_TRACE(std::string(dtype_name(dt)) + " " + std::string(isa_name(isa)) + " " +
                     std::string(metric_name(m)));
        for (std::size_t threads : {1, 2, 3}) {
          SearchOptions o;
          o.k = 10;
          o.metric = m;
          o.threads = threads;
          const auto q = query_near(s, 1234, threads);
          expect_same(s.search(q, o), brute_force(t, q, o));
        }
        // Ties: rows 0, 1 and V/2 are identical; the query is row 0 itself.
        SearchOptions o;
        o.metric = m;
        o.k = 5;
        const auto q0 = s.row(0);
        const auto got = s.search(q0, o);
        expect_same(got, brute_force(t, q0, o));
        ASSERT_GE(got.size(), 3u);
        EXPECT_EQ(got[0].id, 0);
        EXPECT_EQ(got[1].id, 1);
        EXPECT_EQ(got[2].id, 4500);
      }
    }
  }
}

TEST(Searcher, BatchThroughGemmEqualsBruteForce) {
  for (DType dt : {DType::f32, DType::f16, DType::bf16}) {
    const Table t = test::random_table(5000, 48, dt, 3);
    const Searcher s(t);
    Matrix Q(40, 48);
    for (std::size_t b = 0; b < 40; ++b) {
      // Half the queries are rows themselves (ties with the duplicate rows), half perturbed rows.
      const auto q = b % 2 ? s.row(static_cast<Id>(b)) : query_near(s, static_cast<Id>(b * 97), b);
      std::copy(q.begin(), q.end(), Q.row_mut(b).begin());
    }
    for (Metric m : {Metric::cosine, Metric::dot, Metric::euclidean}) {
      SCOPED_TRACE(std::string(dtype_name(dt)) + " " + std::string(metric_name(m)));
      SearchOptions o;
      o.k = 7;
      o.metric = m;
      o.exclude = {5, 3, 3};
      o.restrict_rows = 4700;
      const auto got = s.search_batch(Q, o);
      ASSERT_EQ(got.size(), 40u);
      for (std::size_t b = 0; b < 40; ++b) expect_same(got[b], brute_force(t, Q.row(b), o));
    }
  }
}

TEST(Searcher, ExcludeAndRestrict) {
  const Table t = test::random_table(300, 16, DType::f32, 5, false);
  const Searcher s(t);
  SearchOptions o;
  o.k = 300;
  const auto q = s.row(10);
  auto all = s.search(q, o);
  ASSERT_EQ(all.size(), 300u);
  EXPECT_EQ(all[0].id, 10);
  EXPECT_NEAR(all[0].score, 1.0f, 1e-6);
  o.exclude = {10, 299};
  o.restrict_rows = 100;
  auto some = s.search(q, o);
  ASSERT_EQ(some.size(), 99u);  // rows 0..99 without 10
  for (auto& n : some) {
    EXPECT_LT(n.id, 100);
    EXPECT_NE(n.id, 10);
  }
  for (std::size_t i = 1; i < some.size(); ++i) EXPECT_GE(some[i - 1].score, some[i].score);
  // restrict larger than V means all rows
  o.restrict_rows = 1000;
  o.exclude.clear();
  o.k = 1000;
  EXPECT_EQ(s.search(q, o).size(), 300u);
}

TEST(Searcher, EuclideanIsADistanceNearestFirst) {
  const Table t = test::random_table(200, 8, DType::f32, 9, false);
  const Searcher s(t);
  SearchOptions o;
  o.metric = Metric::euclidean;
  o.k = 3;
  auto q = s.row(42);
  auto got = s.search(q, o);
  EXPECT_EQ(got[0].id, 42);
  EXPECT_EQ(got[0].score, 0.0f);
  EXPECT_LT(got[0].score, got[1].score);
  double want = 0;
  const auto r = s.row(got[1].id);
  for (std::size_t i = 0; i < 8; ++i) want += (q[i] - r[i]) * (q[i] - r[i]);
  EXPECT_NEAR(got[1].score, std::sqrt(want), 1e-5);
}

TEST(Searcher, NormsAndSimilarity) {
  Table t;
  t.E = Matrix(3, 2);
  t.E.set(0, 0, 3);
  t.E.set(0, 1, 4);
  t.E.set(1, 0, -6);
  t.E.set(1, 1, -8);  // row 2 stays zero
  for (auto w : {"a", "b", "z"}) t.vocab.add(w);
  const Searcher s(t);
  EXPECT_FLOAT_EQ(s.norm(0), 5);
  EXPECT_FLOAT_EQ(s.norm(1), 10);
  EXPECT_FLOAT_EQ(s.norm(2), 0);
  EXPECT_FLOAT_EQ(s.max_norm(), 10);
  EXPECT_FLOAT_EQ(s.similarity(0, 1), -1);
  EXPECT_FLOAT_EQ(s.similarity(0, 1, Metric::dot), -50);
  EXPECT_FLOAT_EQ(s.similarity(0, 1, Metric::euclidean), 15);
  EXPECT_EQ(s.similarity(0, 2), 0.0f);  // a zero row has no direction
  const std::vector<float> a{1, 0}, b{0, 2};
  EXPECT_FLOAT_EQ(similarity(a, b), 0);
  EXPECT_FLOAT_EQ(similarity(a, b, Metric::euclidean), std::sqrt(5.0f));
  EXPECT_THROW(s.norm(3), IdError);
  EXPECT_THROW(s.similarity(-1, 0), IdError);
  EXPECT_THROW(similarity(a, std::vector<float>{1, 2, 3}), InputError);
}

TEST(Searcher, BadArguments) {
  const Table t = test::random_table(20, 4, DType::f32, 1);
  const Searcher s(t);
  SearchOptions o;
  o.k = 0;
  EXPECT_THROW(s.search(s.row(0), o), UsageError);
  o.k = 3;
  EXPECT_THROW(s.search(std::vector<float>(5), o), InputError);
  EXPECT_THROW(parse_metric("manhattan"), UsageError);
  EXPECT_EQ(parse_metric("l2"), Metric::euclidean);
  EXPECT_THROW(s.search_batch(Matrix(2, 4, DType::f16), o), UsageError);
}

TEST(Searcher, ScoresMatchSearch) {
  const Table t = test::random_table(700, 24, DType::bf16, 4);
  const Searcher s(t);
  const auto q = query_near(s, 3, 3);
  std::vector<float> all(700);
  s.scores(q, Metric::cosine, all);
  SearchOptions o;
  o.k = 5;
  for (const auto& n : s.search(q, o)) EXPECT_EQ(all[static_cast<std::size_t>(n.id)], n.score);
  EXPECT_EQ(s.score(q, 17, Metric::cosine), all[17]);
}

}  // namespace test_searcher
