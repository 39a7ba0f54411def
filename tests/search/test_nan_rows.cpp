// Rows holding NaN or Inf, and k beyond the table: every metric scores such a row NaN with everything (never a
// made-up 0); NaN ranks after every number, so a finite query never gets such a row as a top neighbour, and with
// k reaching it the row comes last rather than vanishing. The same in the streaming pass, the GEMM batch, the
// reference, analogies (3CosAdd and 3CosMul), doesnt_match and the HNSW graph, in every dtype and ISA variant.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lumen/core/simd.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/hnsw.hpp"
#include "lumen/search/searcher.hpp"
#include "test_helpers.hpp"

using namespace lumen;
using namespace lumen::search;

namespace test_nan_rows {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr Id kNanRow = 7, kInfRow = 300;  // one entry NaN / one entry Inf

Table table_with_bad_rows(std::size_t V, std::size_t d, DType dt) {
  Table t = test::random_table(V, d, DType::f32, 21, false);
  t.E.set(kNanRow, 3, kNaN);
  t.E.set(kInfRow, 0, -kInf);
  if (dt != DType::f32) t.E = t.E.to(dt);
  return t;
}

struct IsaGuard {
  Isa saved = active_isa();
  ~IsaGuard() { force_isa(saved); }
};

bool bad(Id id) { return id == kNanRow || id == kInfRow; }

// Same ids; the same scores, NaN matching NaN.
void expect_same(const std::vector<Neighbour>& got, const std::vector<Neighbour>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].id, want[i].id) << "rank " << i;
    if (std::isnan(want[i].score)) EXPECT_TRUE(std::isnan(got[i].score)) << "rank " << i;
    else EXPECT_EQ(got[i].score, want[i].score) << "rank " << i;
  }
}

TEST(NanRows, ScoreNanWithEverythingInEveryMetric) {
  IsaGuard guard;
  for (DType dt : {DType::f32, DType::f16, DType::bf16}) {
    const Table t = table_with_bad_rows(400, 19, dt);
    for (Isa isa : available_isas()) {
      force_isa(isa);
      const Searcher s(t);
      for (Metric m : {Metric::cosine, Metric::dot, Metric::euclidean}) {
        SCOPED_TRACE(std::string(dtype_name(dt)) + " " + std::string(isa_name(isa)) + " " +
                     std::string(metric_name(m)));
        for (Id other : {Id{0}, Id{5}, Id{399}}) {
          EXPECT_TRUE(std::isnan(s.similarity(kNanRow, other, m)));
          EXPECT_TRUE(std::isnan(s.similarity(other, kNanRow, m)));
        }
        EXPECT_TRUE(std::isnan(s.similarity(kNanRow, kNanRow, m)));
        // A row with an Inf entry has no direction (cosine NaN); it is infinitely far (euclidean +Inf, a number).
        if (m == Metric::cosine) {
          EXPECT_TRUE(std::isnan(s.similarity(kInfRow, 5, m)));
          EXPECT_TRUE(std::isnan(s.similarity(5, kInfRow, m)));
        } else if (m == Metric::euclidean) {
          EXPECT_EQ(s.similarity(5, kInfRow, m), kInf);
        }
        std::vector<float> all(t.V());
        s.scores(s.row(3), m, all);
        EXPECT_TRUE(std::isnan(all[kNanRow]));
      }
      // A zero vector still has cosine 0 with a finite row (no direction), and NaN with a NaN row.
      const std::vector<float> zero(t.d(), 0.0f);
      EXPECT_EQ(s.score(zero, 5, Metric::cosine), 0.0f);
      EXPECT_TRUE(std::isnan(s.score(zero, kNanRow, Metric::cosine)));
      EXPECT_TRUE(std::isnan(similarity(zero, s.row(kNanRow))));
    }
  }
}

TEST(NanRows, RankLastNeverFirstAndDoNotVanish) {
  IsaGuard guard;
  for (DType dt : {DType::f32, DType::f16, DType::bf16}) {
    // 9000 rows: several threads' shares; the NaN row sits in the first block, the Inf row in another.
    const Table t = table_with_bad_rows(9000, 24, dt);
    for (Isa isa : available_isas()) {
      force_isa(isa);
      const Searcher s(t, 2);
      for (Metric m : {Metric::cosine, Metric::euclidean}) {
        SCOPED_TRACE(std::string(dtype_name(dt)) + " " + std::string(isa_name(isa)) + " " +
                     std::string(metric_name(m)));
        SearchOptions o;
        o.metric = m;
        o.k = t.V();
        o.threads = 2;
        const auto q = s.row(kNanRow + 1);
        const auto every = s.search(q, o);
        ASSERT_EQ(every.size(), t.V());
        // Every number first, then the NaN rows, lower id first. By distance the Inf row is a number (+Inf, the
        // farthest), so it comes just before the NaN row; by cosine both are NaN.
        for (std::size_t i = 0; i + 2 < every.size(); ++i) EXPECT_FALSE(std::isnan(every[i].score)) << i;
        if (m == Metric::cosine) {
          EXPECT_EQ(every[t.V() - 2].id, kNanRow);
          EXPECT_EQ(every[t.V() - 1].id, kInfRow);
          EXPECT_TRUE(std::isnan(every[t.V() - 2].score));
        } else {
          EXPECT_EQ(every[t.V() - 2].id, kInfRow);
          EXPECT_EQ(every[t.V() - 2].score, kInf);
          EXPECT_EQ(every[t.V() - 1].id, kNanRow);
        }
        EXPECT_TRUE(std::isnan(every[t.V() - 1].score));
        expect_same(every, brute_force(t, q, o));
        o.k = 10;
        for (const auto& n : s.search(q, o)) EXPECT_FALSE(bad(n.id));
        // The GEMM batch agrees, NaN rows included.
        Matrix Q(9, t.d());
        for (std::size_t b = 0; b < 9; ++b) {
          const auto r = s.row(static_cast<Id>(b * 101));  // b = 0 ... 8; row 7 * 101 = 707 is finite
          std::copy(r.begin(), r.end(), Q.row_mut(b).begin());
        }
        o.k = t.V() - 1;
        const auto batch = s.search_batch(Q, o);
        for (std::size_t b = 0; b < 9; ++b) expect_same(batch[b], s.search(Q.row(b), o));
        // A query from the NaN row: every score is NaN, so the order is the ids' and nothing is dropped.
        o.k = 4;
        const auto from_nan = s.search(s.row(kNanRow), o);
        ASSERT_EQ(from_nan.size(), 4u);
        for (std::size_t i = 0; i < 4; ++i) {
          EXPECT_EQ(from_nan[i].id, static_cast<Id>(i));
          EXPECT_TRUE(std::isnan(from_nan[i].score));
        }
      }
    }
  }
}

TEST(NanRows, AnalogyAndDoesntMatch) {
  const Table t = table_with_bad_rows(500, 16, DType::f32);
  const Searcher s(t);
  for (AnalogyMethod method : {AnalogyMethod::add, AnalogyMethod::mul}) {
    AnalogyOptions o;
    o.method = method;
    o.k = t.V();
    const auto r = analogy(s, 1, 2, 3, o, kNanRow);
    ASSERT_EQ(r.answers.size(), t.V() - 3);
    EXPECT_EQ(r.answers[r.answers.size() - 2].id, kNanRow);
    EXPECT_EQ(r.answers.back().id, kInfRow);
    EXPECT_TRUE(std::isnan(r.answers.back().score));
    EXPECT_EQ(r.rank, t.V() - 4);  // the expected NaN row ranks after every number
    // An input row with NaN: every score NaN (not a ranking of made-up numbers).
    o.k = 5;
    for (const auto& n : analogy(s, kNanRow, 2, 3, o).answers) EXPECT_TRUE(std::isnan(n.score));
  }
  const auto fine = doesnt_match(s, {1, 2, 3});
  ASSERT_TRUE(fine.id.has_value());
  const auto r = doesnt_match(s, {1, kNanRow, 3});
  EXPECT_FALSE(r.id.has_value());  // no word can be picked from NaN cosines
  ASSERT_EQ(r.by_distance.size(), 3u);
  for (const auto& n : r.by_distance) EXPECT_TRUE(std::isnan(n.score));
}

TEST(KBeyondTheTable, ReturnsEveryRowWithoutSizingAHeapOfK) {
  const Table t = test::random_table(300, 8, DType::f32, 2, false);
  const Searcher s(t);
  SearchOptions o;
  o.k = std::numeric_limits<std::size_t>::max();
  EXPECT_EQ(s.search(s.row(0), o).size(), 300u);
  o.restrict_rows = 50;
  o.exclude = {0};
  EXPECT_EQ(s.search(s.row(0), o).size(), 49u);
  Matrix Q(10, 8);
  EXPECT_EQ(s.search_batch(Q, o).at(3).size(), 49u);
  AnalogyOptions a;
  a.k = std::numeric_limits<std::size_t>::max();
  EXPECT_EQ(analogy(s, 1, 2, 3, a).answers.size(), 297u);
  a.method = AnalogyMethod::mul;
  EXPECT_EQ(analogy(s, 1, 2, 3, a).answers.size(), 297u);
  const HnswIndex index = HnswIndex::build(s, Metric::cosine);
  EXPECT_EQ(index.search(s.row(0), std::numeric_limits<std::size_t>::max(), {0}).size(), 299u);
}

}  // namespace test_nan_rows
