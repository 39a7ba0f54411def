// lumen compare's numbers against a float64 NumPy/SciPy computation (scipy.linalg.orthogonal_procrustes) on
// committed fixtures: tests/data/eval/compare/expected.json, made by tests/data/eval/compare/make_compare.py.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "lumen/core/error.hpp"
#include "lumen/eval/cka.hpp"
#include "lumen/eval/compare.hpp"
#include "lumen/eval/cross_gram.hpp"
#include "lumen/eval/neighbour_overlap.hpp"
#include "lumen/eval/procrustes.hpp"
#include "lumen/io/open.hpp"

namespace test_compare {

using nlohmann::json;
const std::string kHere = std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/compare/";

json expected() {
  std::ifstream f(kHere + "expected.json");
  return json::parse(f);
}

lumen::Table open(const std::string& name) { return lumen::io::open_table(kHere + name); }

lumen::eval::CompareOptions options(std::size_t k) {
  lumen::eval::CompareOptions o;
  o.k = k;
  o.moved = 3;
  o.threads = 1;
  return o;
}

// A table of the given words with rows from a generator.
lumen::Table make_table(std::size_t V, std::size_t d, const std::string& prefix, float (*f)(std::size_t, std::size_t)) {
  lumen::Table t;
  t.E = lumen::Matrix(V, d);
  for (std::size_t i = 0; i < V; ++i) {
    t.vocab.add(prefix + std::to_string(i));
    for (std::size_t j = 0; j < d; ++j) t.E.set(i, j, f(i, j));
  }
  t.source = prefix;
  return t;
}

float wave(std::size_t i, std::size_t j) {
  return std::sin(0.7f * static_cast<float>(i + 1) * static_cast<float>(j + 1));
}

TEST(EvalCompare, EqualsNumPyAndSciPyOnTablesOfEqualD) {
  const json e = expected();
  const json& ab = e["ab"];
  const auto c = lumen::eval::compare_tables(open("a.vec"), open("b.vec"), options(e["k"].get<std::size_t>()));
  ASSERT_EQ(c.n, ab["shared"].size());
  EXPECT_EQ(c.shared, 45u);
  for (std::size_t i = 0; i < c.n; ++i) EXPECT_NEAR(c.overlap[i], ab["overlap"][i].get<double>(), 1e-12) << i;
  EXPECT_NEAR(c.mean_overlap, ab["mean_overlap"].get<double>(), 1e-12);
  EXPECT_NEAR(c.median_overlap, ab["median_overlap"].get<double>(), 1e-12);
  EXPECT_NEAR(c.cka, ab["cka"].get<double>(), 1e-5);
  ASSERT_TRUE(c.procrustes.has_value());
  EXPECT_NEAR(c.procrustes->residual, ab["procrustes"]["residual"].get<double>(), 1e-5);
  EXPECT_NEAR(c.procrustes->scale, ab["procrustes"]["scale"].get<double>(), 1e-5);
  EXPECT_EQ(c.procrustes->reflection, ab["procrustes"]["reflection"].get<bool>());
  const auto& R = ab["procrustes"]["R"];
  ASSERT_EQ(c.procrustes->R.size(), R.size());
  for (std::size_t i = 0; i < R.size(); ++i) EXPECT_NEAR(c.procrustes->R[i], R[i].get<double>(), 1e-5) << i;
  // The most changed words come lowest overlap first, and each lists k neighbours in each table.
  ASSERT_EQ(c.moved.size(), 3u);
  EXPECT_LE(c.moved[0].overlap, c.moved[1].overlap);
  EXPECT_LE(c.moved[1].overlap, c.moved[2].overlap);
  EXPECT_EQ(c.moved[0].in_a.size(), 5u);
  EXPECT_EQ(c.moved[0].in_b.size(), 5u);
  std::size_t total = 0;
  for (const auto h : c.histogram) total += h;
  EXPECT_EQ(total, c.n);
}

TEST(EvalCompare, DifferentDSkipsProcrustesAndSaysSoButKeepsOverlapAndCka) {
  const json e = expected();
  const json& ac = e["ac"];
  const auto c = lumen::eval::compare_tables(open("a.vec"), open("c.vec"), options(e["k"].get<std::size_t>()));
  ASSERT_EQ(c.n, ac["shared"].size());
  for (std::size_t i = 0; i < c.n; ++i) EXPECT_NEAR(c.overlap[i], ac["overlap"][i].get<double>(), 1e-12) << i;
  EXPECT_NEAR(c.mean_overlap, ac["mean_overlap"].get<double>(), 1e-12);
  EXPECT_NEAR(c.cka, ac["cka"].get<double>(), 1e-5);
  EXPECT_FALSE(c.procrustes.has_value());
  EXPECT_NE(c.procrustes_skipped.find("equal d"), std::string::npos) << c.procrustes_skipped;
  // Asked directly, Procrustes refuses with the reason.
  const auto a = open("a.vec"), t = open("c.vec");
  const auto s = lumen::eval::shared_vocab(a.vocab, t.vocab);
  lumen::Matrix X(s.size(), 8), Y(s.size(), 5);
  for (std::size_t i = 0; i < s.size(); ++i) {
    a.E.row_f32(static_cast<std::size_t>(s.a_rows[i]), X.row_mut(i).data());
    t.E.row_f32(static_cast<std::size_t>(s.b_rows[i]), Y.row_mut(i).data());
  }
  try {
    lumen::eval::orthogonal_procrustes(lumen::eval::cross_gram(X, Y));
    FAIL() << "no error";
  } catch (const lumen::UsageError& err) {
    EXPECT_NE(std::string(err.what()).find("d = 8"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("d = 5"), std::string::npos) << err.what();
  }
}

TEST(EvalCompare, ATableAgainstItselfAndARotationOfIt) {
  const auto a = make_table(30, 6, "w", wave);
  const auto c = lumen::eval::compare_tables(a, a, options(4));
  EXPECT_DOUBLE_EQ(c.mean_overlap, 1.0);
  EXPECT_NEAR(c.cka, 1.0, 1e-9);
  ASSERT_TRUE(c.procrustes.has_value());
  EXPECT_NEAR(c.procrustes->residual, 0.0, 1e-3);
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) EXPECT_NEAR(c.procrustes->R[i * 6 + j], i == j ? 1.0 : 0.0, 1e-6);
  // A rotation (swap two coordinates, negate a third) keeps every neighbourhood, CKA 1 and residual 0.
  lumen::Table b = make_table(30, 6, "w", wave);
  for (std::size_t i = 0; i < 30; ++i) {
    const float x = a.E.at(i, 0), y = a.E.at(i, 1);
    b.E.set(i, 0, y);
    b.E.set(i, 1, x);
    b.E.set(i, 2, -a.E.at(i, 2));
  }
  const auto r = lumen::eval::compare_tables(a, b, options(4));
  EXPECT_DOUBLE_EQ(r.mean_overlap, 1.0);
  EXPECT_NEAR(r.cka, 1.0, 1e-9);
  EXPECT_NEAR(r.procrustes->residual, 0.0, 1e-3);
  EXPECT_GT(r.procrustes->norm_b, 1.0);
}

TEST(EvalCompare, BadInputsAreClearErrors) {
  const auto a = make_table(20, 4, "w", wave);
  const auto other = make_table(20, 4, "x", wave);
  try {
    lumen::eval::compare_tables(a, other, options(3));
    FAIL() << "no error";
  } catch (const lumen::InputError& err) {
    EXPECT_NE(std::string(err.what()).find("share no words"), std::string::npos) << err.what();
  }
  // k must leave a neighbour to find: k >= the shared words is an input error naming both numbers.
  try {
    lumen::eval::compare_tables(a, a, options(20));
    FAIL() << "no error";
  } catch (const lumen::InputError& err) {
    EXPECT_NE(std::string(err.what()).find("20 shared words"), std::string::npos) << err.what();
  }
  EXPECT_THROW(lumen::eval::compare_tables(a, a, options(0)), lumen::UsageError);
  // --top cuts the compared words to the first N.
  auto o = options(3);
  o.top = 10;
  const auto c = lumen::eval::compare_tables(a, a, o);
  EXPECT_EQ(c.n, 10u);
  EXPECT_EQ(c.shared, 20u);
}

TEST(EvalCompare, CkaIsNaNForAConstantTable) {
  const auto a = make_table(10, 3, "w", wave);
  const auto flat = make_table(10, 3, "w", [](std::size_t, std::size_t j) { return static_cast<float>(j + 1); });
  const auto g = lumen::eval::cross_gram(a.E, flat.E);
  EXPECT_TRUE(std::isnan(lumen::eval::linear_cka(g)));
}

// A sample compares the lists of a seeded random subset of the words: each sampled word's overlap is its overlap
// in the full comparison, the mean comes with a standard error, and Procrustes and CKA still use every word.
TEST(EvalCompare, ASampleEstimatesTheOverlapFromSomeWordsListsSearchedAmongAll) {
  const auto a = make_table(300, 6, "w", wave);
  const auto b = make_table(300, 6, "w", [](std::size_t i, std::size_t j) {
    return std::sin(0.7f * static_cast<float>(i + 1) * static_cast<float>(j + 1)) + 0.3f * std::cos(1.3f * i * j);
  });
  auto o = options(5);
  o.moved = 300;
  const auto full = lumen::eval::compare_tables(a, b, o);
  EXPECT_FALSE(full.sampled);  // unset: every word, below kAutoSampleAbove
  EXPECT_EQ(full.queries, 300u);
  o.sample = 40;
  o.seed = 9;
  const auto part = lumen::eval::compare_tables(a, b, o);
  EXPECT_TRUE(part.sampled);
  EXPECT_EQ(part.queries, 40u);
  EXPECT_EQ(part.n, 300u);
  ASSERT_EQ(part.overlap.size(), 40u);
  EXPECT_GT(part.overlap_stderr, 0.0);
  EXPECT_DOUBLE_EQ(part.cka, full.cka);
  EXPECT_DOUBLE_EQ(part.procrustes->residual, full.procrustes->residual);
  std::map<std::string, double> by_word;
  for (const auto& m : full.moved) by_word[m.word] = m.overlap;
  ASSERT_EQ(part.moved.size(), 40u);
  for (const auto& m : part.moved) {
    ASSERT_TRUE(by_word.count(m.word)) << m.word;
    EXPECT_DOUBLE_EQ(m.overlap, by_word[m.word]) << m.word;
  }
  // The same seed draws the same words; another seed others.
  EXPECT_EQ(lumen::eval::compare_tables(a, b, o).overlap, part.overlap);
  auto words = [](const lumen::eval::Comparison& c) {
    std::set<std::string> w;
    for (const auto& m : c.moved) w.insert(m.word);
    return w;
  };
  o.seed = 10;
  EXPECT_NE(words(lumen::eval::compare_tables(a, b, o)), words(part));
  // 0: every word; a sample of one word is refused.
  o.sample = 0;
  EXPECT_EQ(lumen::eval::compare_tables(a, b, o).overlap, full.overlap);
  o.sample = 1;
  EXPECT_THROW(lumen::eval::compare_tables(a, b, o), lumen::UsageError);
}

}  // namespace test_compare
