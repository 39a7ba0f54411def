// The pruned exact neighbours (a low-rank bound, then exact rescoring) give exactly the lists of the all-pairs
// scan: the same ids, the same cosines, the same ties, on tables with a steep spectrum, a flat one, and duplicates.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/eval/neighbour_overlap.hpp"
#include "lumen/eval/pruned_neighbours.hpp"

using namespace lumen;
using namespace lumen::eval;

namespace test_pruned_neighbours {

// n rows in d dimensions, spectrum decaying as 1 / (1 + j)^power (power 0: isotropic noise), plus a shared offset
// (word2vec tables share a common direction) and a few exact duplicates (ties).
Matrix table(std::size_t n, std::size_t d, double power, std::uint64_t seed) {
  Rng rng(seed);
  Matrix X(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j)
      X.set(i, j, static_cast<float>(rng.normal() / std::pow(1.0 + static_cast<double>(j), power) + (j == 0 ? 2 : 0)));
  for (std::size_t i = 10; i < 20 && i + 100 < n; ++i)
    for (std::size_t j = 0; j < d; ++j) X.set(i + 100, j, X.at(i, j));
  return X;
}

void expect_same(const NeighbourLists& a, const NeighbourLists& b) {
  ASSERT_EQ(a.n, b.n);
  ASSERT_EQ(a.k, b.k);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.n * a.k; ++i) differ += a.ids[i] != b.ids[i] || a.cosine[i] != b.cosine[i];
  EXPECT_EQ(differ, 0u);
}

TEST(EvalPrunedNeighbours, EqualsTheAllPairsScanExactly) {
  for (const double power : {1.5, 0.5, 0.0}) {
    const Matrix X = table(1500, 48, power, 3);
    for (const std::size_t k : {1u, 10u}) {
      PruneStats stats;
      const NeighbourLists pruned = pruned_cosine_neighbours(X, k, 2, {}, &stats);
      const NeighbourLists scan = cosine_neighbours_scan(X, k, 2);
      SCOPED_TRACE(testing::Message() << "power " << power << ", k " << k);
      expect_same(pruned, scan);
      EXPECT_EQ(stats.rank, 32u);
      EXPECT_GE(stats.mean_candidates, static_cast<double>(k + 1));
      if (power == 1.5) {
        EXPECT_LT(stats.mean_candidates, 1500.0 * 0.5);  // a steep spectrum prunes
      }
    }
  }
}

TEST(EvalPrunedNeighbours, LargeTablesAgreeWhicheverPathTheyTake) {
  const Matrix X = table(4200, 64, 1.0, 5);
  expect_same(cosine_neighbours(X, 5, 2), cosine_neighbours_scan(X, 5, 2));
}

TEST(EvalPrunedNeighbours, RowsTheBoundCannotTakeAreRefused) {
  Matrix X = table(50, 8, 1.0, 1);
  EXPECT_TRUE(prunable(X));
  for (std::size_t j = 0; j < 8; ++j) X.set(7, j, 0.0f);
  EXPECT_FALSE(prunable(X));
  EXPECT_THROW(pruned_cosine_neighbours(X, 3), UsageError);
  X.set(7, 0, NAN);
  EXPECT_FALSE(prunable(X));
  const Matrix Y = table(50, 8, 1.0, 1);
  EXPECT_THROW(pruned_cosine_neighbours(Y, 0), UsageError);
  EXPECT_THROW(pruned_cosine_neighbours(Y, 50), UsageError);
}

TEST(EvalPrunedNeighbours, GivesUpOnAFlatSpectrumAndTheScanRuns) {
  const Matrix X = table(4200, 64, 0.0, 9);  // isotropic: the rank-32 bound prunes little
  PruneStats stats;
  const NeighbourLists nb = pruned_cosine_neighbours(X, 5, 2, {}, &stats, 0.02);
  EXPECT_TRUE(stats.gave_up);
  EXPECT_GT(stats.residual, 0.25);  // decided from the spectrum, before any product
  EXPECT_EQ(stats.spectrum_rows, 4200u);
  EXPECT_EQ(stats.mean_candidates, 0.0);
  EXPECT_TRUE(nb.ids.empty());
  expect_same(cosine_neighbours(X, 5, 2), cosine_neighbours_scan(X, 5, 2));
}

// A steep spectrum passes the spectral check; the first block's rescoring share decides (here a share no block can
// stay under), and without a limit the same table prunes.
TEST(EvalPrunedNeighbours, GivesUpAfterTheFirstBlockWhenItRescoresTooMuch) {
  const Matrix X = table(2000, 64, 1.5, 11);
  PruneStats stats;
  EXPECT_TRUE(pruned_cosine_neighbours(X, 5, 2, {}, &stats, 1e-6).ids.empty());
  EXPECT_TRUE(stats.gave_up);
  EXPECT_LT(stats.residual, 0.25);
  EXPECT_GE(stats.mean_candidates, 6.0);
  PruneStats kept;
  expect_same(pruned_cosine_neighbours(X, 5, 2, {}, &kept), cosine_neighbours_scan(X, 5, 2));
  EXPECT_FALSE(kept.gave_up);
  EXPECT_DOUBLE_EQ(kept.residual, stats.residual);
}

// A subset of queries gets exactly the lists those rows get in the full run, by either path; list q is queries[q].
TEST(EvalPrunedNeighbours, ASubsetOfQueriesGetsTheFullRunsListsForThoseRows) {
  const Matrix X = table(1200, 48, 1.5, 7);
  const std::vector<std::int32_t> queries = {3, 4, 110, 599, 1199};
  const NeighbourLists all = cosine_neighbours_scan(X, 6, 2);
  for (const bool pruned : {true, false}) {
    const NeighbourLists some = pruned ? pruned_cosine_neighbours(X, 6, 2, {}, nullptr, 1.0, &queries)
                                       : cosine_neighbours_scan(X, 6, 2, {}, &queries);
    SCOPED_TRACE(pruned ? "pruned" : "scan");
    ASSERT_EQ(some.n, queries.size());
    for (std::size_t q = 0; q < queries.size(); ++q)
      for (std::size_t j = 0; j < 6; ++j) {
        const std::size_t full = static_cast<std::size_t>(queries[q]) * 6 + j;
        EXPECT_EQ(some.ids[q * 6 + j], all.ids[full]) << q << " " << j;
        EXPECT_EQ(some.cosine[q * 6 + j], all.cosine[full]) << q << " " << j;
      }
  }
  const std::vector<std::int32_t> outside = {5, 1200};
  EXPECT_THROW(pruned_cosine_neighbours(X, 6, 2, {}, nullptr, 1.0, &outside), IdError);
}

// Above 16,384 rows the spectrum is first judged from a sample of 8192 rows: a flat table gives up before the
// set-up, a steep one goes on (and its lists are still the scan's).
TEST(EvalPrunedNeighbours, LargeTablesAreJudgedFromASampleOfRowsFirst) {
  const std::vector<std::int32_t> queries = {0, 7, 16500};
  PruneStats flat;
  EXPECT_TRUE(pruned_cosine_neighbours(table(17000, 64, 0.0, 4), 5, 2, {}, &flat, 0.02, &queries).ids.empty());
  EXPECT_TRUE(flat.gave_up);
  EXPECT_EQ(flat.mean_candidates, 0.0);
  EXPECT_GT(flat.residual, 0.25);
  EXPECT_EQ(flat.spectrum_rows, 8192u);
  const Matrix X = table(17000, 64, 1.5, 4);
  PruneStats steep;
  expect_same(pruned_cosine_neighbours(X, 5, 2, {}, &steep, 0.02, &queries),
              cosine_neighbours_scan(X, 5, 2, {}, &queries));
  EXPECT_FALSE(steep.gave_up);
  EXPECT_LT(steep.residual, 0.25);
  EXPECT_EQ(steep.spectrum_rows, 17000u);
}

}  // namespace test_pruned_neighbours
