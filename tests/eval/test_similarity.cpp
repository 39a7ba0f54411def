#include <gtest/gtest.h>

#include <cmath>

#include "lumen/core/error.hpp"
#include "lumen/eval/correlation.hpp"
#include "lumen/eval/similarity.hpp"

using namespace lumen;
using namespace lumen::eval;

namespace test_similarity {
Table small_table() {
  Table t;
  const std::vector<std::vector<float>> rows = {{1, 0}, {0.8f, 0.6f}, {0, 1}, {-1, 0}, {0, 0}, {0.6f, 0.8f}};
  for (const char* w : {"cat", "Tiger", "car", "dog", "zero", "tiger"}) t.vocab.add(w);
  t.E = Matrix(rows.size(), 2);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < 2; ++c) t.E.set(r, c, rows[r][c]);
  return t;
}

TEST(EvalSimilarity, CosinesCorrelationsAndOov) {
  const auto t = small_table();
  const auto set = parse_word_pairs("cat\ttiger\t8\ncat\tcar\t2\ncat\tdog\t1\ncat\tlion\t9\ncar\tzero\t0.5\n", "p");
  const auto r = evaluate_similarity(t, set);
  ASSERT_EQ(r.pairs, 4u);
  EXPECT_EQ(r.oov, 1u);
  EXPECT_DOUBLE_EQ(r.oov_ratio(), 0.2);
  // TIGER means "Tiger", row 1 (the first casing), not row 5.
  EXPECT_NEAR(r.model[0], 0.8, 1e-7);
  EXPECT_NEAR(r.model[1], 0.0, 1e-7);
  EXPECT_NEAR(r.model[2], -1.0, 1e-7);
  EXPECT_EQ(r.model[3], 0.0);  // a zero vector: cosine 0, as gensim's unitvec leaves it zero
  EXPECT_NEAR(r.pearson, pearson(r.human, r.model), 1e-12);
  EXPECT_NEAR(r.spearman, spearman(r.human, r.model), 1e-12);
  SimilarityOptions cs;
  cs.case_insensitive = false;  // "tiger" is now row 5
  EXPECT_NEAR(evaluate_similarity(t, set, cs).model[0], 0.6, 1e-7);
  SimilarityOptions restricted;
  restricted.restrict = 3;  // cat Tiger car: dog and zero are unknown
  const auto rr = evaluate_similarity(t, set, restricted);
  EXPECT_EQ(rr.pairs, 2u);
  EXPECT_EQ(rr.oov, 3u);
  EXPECT_EQ(rr.rows, 3u);
}

TEST(EvalSimilarity, NoPairInTheVocabularyIsAClearError) {
  const auto t = small_table();
  try {
    evaluate_similarity(t, parse_word_pairs("lion\tbear\t3\n", "pairs.tsv"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pairs.tsv"), std::string::npos);
  }
  // One pair: the correlations are undefined (NaN), not an error and not a division by zero.
  const auto one = evaluate_similarity(t, parse_word_pairs("cat\tdog\t3\n", "p"));
  EXPECT_EQ(one.pairs, 1u);
  EXPECT_TRUE(std::isnan(one.pearson));
  EXPECT_TRUE(std::isnan(one.spearman));
}

}  // namespace test_similarity
