#include <gtest/gtest.h>

#include <set>

#include "lumen/core/error.hpp"
#include "lumen/project/honesty.hpp"

using namespace lumen;
using namespace lumen::project;

namespace test_honesty {
Neighbours lists(std::vector<std::vector<std::int32_t>> rows) {
  Neighbours nb;
  nb.n = rows.size();
  nb.k = rows.empty() ? 0 : rows[0].size();
  for (auto& r : rows) nb.ids.insert(nb.ids.end(), r.begin(), r.end());
  nb.dist2.assign(nb.ids.size(), 0.0f);
  return nb;
}

TEST(Honesty, JaccardCountsSharedNeighbours) {
  const Neighbours a = lists({{1, 2, 3}, {0, 2, 3}}), b = lists({{3, 2, 1}, {4, 5, 6}});
  EXPECT_DOUBLE_EQ(knn_jaccard(a, a, 3), 1.0);
  EXPECT_DOUBLE_EQ(knn_jaccard(a, b, 3), 0.5);  // (1 + 0) / 2
  EXPECT_DOUBLE_EQ(knn_jaccard(a, lists({{1, 2, 9}, {0, 9, 8}}), 3), (2.0 / 4 + 1.0 / 5) / 2);
  EXPECT_THROW(knn_jaccard(a, b, 4), UsageError);
}

TEST(Honesty, PreservationComparesAgainstTheOriginalRows) {
  const Neighbours original = lists({{1, 2}, {0, 2}, {0, 1}, {2, 1}});
  const std::vector<std::int32_t> q{1, 3};
  const Neighbours mine = select_rows(original, q);
  EXPECT_EQ(mine.ids, (std::vector<std::int32_t>{0, 2, 2, 1}));
  const Neighbours map = lists({{2, 3}, {0, 1}});  // for points 1 and 3
  EXPECT_DOUBLE_EQ(knn_preservation(mine, map, 2), (0.5 + 0.5) / 2);
  EXPECT_DOUBLE_EQ(knn_preservation(mine, map, 1), (0.0 + 0.0) / 2);
  EXPECT_THROW(select_rows(original, {4}), IdError);
}

TEST(Honesty, MapNeighboursAndSamples) {
  const std::vector<float> Y{0, 0, 1, 0, 5, 0, 1.5f, 0};
  const Neighbours m = map_neighbours(Y, 4, {0, 2}, 2);
  EXPECT_EQ(m.row(0)[0], 1);
  EXPECT_EQ(m.row(0)[1], 3);
  EXPECT_EQ(m.row(1)[0], 3);
  EXPECT_EQ(m.row(1)[1], 1);
  const auto s = sample_points(1000, 50, 3);
  EXPECT_EQ(s.size(), 50u);
  EXPECT_EQ(std::set<std::int32_t>(s.begin(), s.end()).size(), 50u);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(s, sample_points(1000, 50, 3));
  EXPECT_EQ(sample_points(5, 50, 3).size(), 5u);
}

}  // namespace test_honesty
