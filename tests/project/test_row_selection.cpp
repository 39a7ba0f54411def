// project::choose_rows and friends: the one row choice the CLI, the explorer and Python make for a map.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/vocab.hpp"
#include "lumen/project/row_selection.hpp"

using lumen::Id;
using lumen::Vocab;
using namespace lumen::project;

TEST(RowSelection, TopRowsOrAllOfThem) {
  RowChoice c;
  EXPECT_EQ(choose_rows(4, c), (std::vector<Id>{0, 1, 2, 3}));  // top 0: all
  c.top = 2;
  EXPECT_EQ(choose_rows(4, c), (std::vector<Id>{0, 1}));
  c.top = 10;  // more than the table has
  EXPECT_EQ(choose_rows(3, c), (std::vector<Id>{0, 1, 2}));
  EXPECT_TRUE(choose_rows(0, RowChoice{}).empty());
}

TEST(RowSelection, ListedRowsKeepTheirOrderAndARepeatOnce) {
  RowChoice c;
  c.top = 1;  // ignored: the list chooses
  c.listed = std::vector<Id>{5, 2, 5, 7, 2};
  EXPECT_EQ(choose_rows(10, c), (std::vector<Id>{5, 2, 7}));
  c.listed = std::vector<Id>{};  // an empty list is a choice of nothing, not of everything
  EXPECT_TRUE(choose_rows(10, c).empty());
}

TEST(RowSelection, HighlightedRowsAreAddedWhenMissing) {
  RowChoice c;
  c.top = 3;
  c.highlight = {8, 1, 8, 6};
  EXPECT_EQ(choose_rows(10, c), (std::vector<Id>{0, 1, 2, 8, 6}));
  c.listed = std::vector<Id>{6, 4};
  EXPECT_EQ(choose_rows(10, c), (std::vector<Id>{6, 4, 8, 1}));
  EXPECT_EQ(highlight_mask({6, 4, 8, 1}, c.highlight), (std::vector<std::uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(highlight_mask({6, 4}, {}), (std::vector<std::uint8_t>{0, 0}));
}

TEST(RowSelection, LabelsGoToTheMostFrequentWordsFirst) {
  Vocab counted;
  counted.add("the", 10);
  counted.add("cat", 3);
  counted.add("sat", 7);
  counted.add("mat", 3);
  // Rows 3, 0, 1, 2 in map order: "the" (10), "sat" (7), then the tie "mat"/"cat" by row (cat first).
  EXPECT_EQ(label_priority(counted, {3, 0, 1, 2}), (std::vector<std::int32_t>{1, 3, 2, 0}));
  const Vocab plain = Vocab::numbered(5);  // no counts: a sorted table's row order
  EXPECT_EQ(label_priority(plain, {4, 0, 2}), (std::vector<std::int32_t>{1, 2, 0}));
  EXPECT_TRUE(label_priority(plain, {}).empty());
}

TEST(RowSelection, ListedWordsAsGivenOrWithoutBlanks) {
  Vocab v;
  v.add("cat");
  v.add(" dog");  // a token that starts with a blank is found as given
  v.add("new york");
  EXPECT_EQ(find_listed_word(v, "cat"), Id{0});
  EXPECT_EQ(find_listed_word(v, "  cat\t\r"), Id{0});
  EXPECT_EQ(find_listed_word(v, " dog"), Id{1});
  EXPECT_EQ(find_listed_word(v, " new york "), Id{2});
  EXPECT_THROW(find_listed_word(v, "dgo"), lumen::UnknownTokenError);
  EXPECT_THROW(find_listed_word(v, "   "), lumen::UnknownTokenError);
}
