// The probe: the label reader's bad inputs, the built-in sets, and accuracy against scikit-learn's
// LogisticRegression (multinomial, same C, same folds) on committed fixtures: tests/data/eval/probe/expected.json,
// made by tests/data/eval/probe/make_probe.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/eval/logistic.hpp"
#include "lumen/eval/probe.hpp"
#include "lumen/io/open.hpp"

namespace test_probe {

using nlohmann::json;
const std::string kHere = std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/probe/";

std::string parse_error(const std::string& text) {
  try {
    lumen::eval::parse_label_set(text, "labels.tsv");
  } catch (const lumen::ParseError& e) {
    return e.what();
  } catch (const lumen::InputError& e) {
    return std::string("input: ") + e.what();
  }
  return "no error";
}

TEST(EvalLabelSet, ReadsWordTabLabelLines) {
  const auto s =
      lumen::eval::parse_label_set("\xEF\xBB\xBFking\tmale\r\nqueen\tfemale\n\n  \nking\tmale\nman\tmale", "x");
  ASSERT_EQ(s.words.size(), 3u);
  EXPECT_EQ(s.words[0].word, "king");
  EXPECT_EQ(s.words[2].line, 6u);
  EXPECT_EQ(s.classes, (std::vector<std::string>{"male", "female"}));
  EXPECT_EQ(s.duplicates, 1u);
  // Spaces belong to the word or label (multi-word tokens); only the tab separates.
  EXPECT_EQ(lumen::eval::parse_label_set("new york\tcity\nparis\tcity name\n", "x").words[0].word, "new york");
}

TEST(EvalLabelSet, BadLinesNameTheFileAndLine) {
  EXPECT_NE(parse_error("king\tmale\nqueen female\n").find("labels.tsv:2: expected word<TAB>label, found no tab"),
            std::string::npos);
  EXPECT_NE(parse_error("king\tmale\tx\n").find("labels.tsv:1: expected word<TAB>label, found a second tab"),
            std::string::npos);
  EXPECT_NE(parse_error("\tmale\n").find(":1: empty word"), std::string::npos);
  EXPECT_NE(parse_error("king\t\n").find(":1: empty label"), std::string::npos);
  EXPECT_NE(parse_error("k\xffng\tmale\n").find(":1: invalid UTF-8"), std::string::npos);
  EXPECT_NE(parse_error("king\tmale\nqueen\tfemale\nking\tfemale\n")
                .find(":3: 'king' is labelled 'female' here and 'male' on line 1"),
            std::string::npos);
  EXPECT_NE(parse_error("").find("input: labels.tsv: no labelled words"), std::string::npos);
  EXPECT_NE(parse_error("\n\n").find("no labelled words"), std::string::npos);
  EXPECT_NE(parse_error("king\tmale\nman\tmale\n").find("a probe needs at least two classes"), std::string::npos);
  EXPECT_THROW(lumen::eval::read_label_set(kHere + "no-such-file.tsv"), lumen::IoError);
}

TEST(EvalLabelSet, BuiltInSetsFromTheAnalogySections) {
  const auto analogies = lumen::eval::read_analogy_set(std::string(LUMEN_DATA_DIR) + "/questions-words.txt");
  const auto gender = lumen::eval::builtin_label_set("gender", analogies);
  EXPECT_EQ(gender.classes, (std::vector<std::string>{"male", "female"}));
  auto label = [](const lumen::eval::LabelSet& s, const std::string& w) {
    for (const auto& x : s.words)
      if (x.word == w) return x.label;
    return std::string("-");
  };
  EXPECT_EQ(label(gender, "king"), "male");
  EXPECT_EQ(label(gender, "queen"), "female");
  const auto capitals = lumen::eval::builtin_label_set("capitals", analogies);
  EXPECT_EQ(label(capitals, "Athens"), "capital");
  EXPECT_EQ(label(capitals, "Greece"), "country");
  EXPECT_GT(capitals.words.size(), 200u);
  const auto plural = lumen::eval::builtin_label_set("plural", analogies);
  EXPECT_EQ(label(plural, "bananas"), "plural");
  EXPECT_THROW(lumen::eval::builtin_label_set("colours", analogies), lumen::UsageError);
  EXPECT_THROW(lumen::eval::builtin_label_set("gender", lumen::eval::AnalogySet{}), lumen::InputError);
  // A word met with both labels is left out.
  const auto set = lumen::eval::parse_analogy_set(": family\nboy girl he she\nhe she him her\nshe he her him\n", "q");
  const auto g = lumen::eval::builtin_label_set("gender", set);
  EXPECT_EQ(label(g, "he"), "-");
  EXPECT_EQ(label(g, "boy"), "male");
}

TEST(EvalProbe, AccuracyEqualsScikitLearnWithTheSameFolds) {
  const json e = json::parse(std::ifstream(kHere + "expected.json"));
  const auto table = lumen::io::open_table(kHere + "table.vec");
  const auto labels = lumen::eval::read_label_set(kHere + "labels.tsv");
  ASSERT_EQ(labels.classes, e["classes"].get<std::vector<std::string>>());
  const std::size_t n = labels.words.size(), d = table.d();
  std::vector<float> X(n * d);
  std::vector<int> y(n), fold(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = table.vocab.require(labels.words[i].word);
    for (std::size_t j = 0; j < d; ++j) X[i * d + j] = table.E.at(static_cast<std::size_t>(id), j);
    y[i] = static_cast<int>(std::find(labels.classes.begin(), labels.classes.end(), labels.words[i].label) -
                            labels.classes.begin());
    fold[i] = static_cast<int>(i % 5);
  }
  for (const double C : {1.0, 0.01}) {
    lumen::eval::LogisticOptions o;
    o.C = C;
    o.threads = 1;
    o.tol = 1e-6;  // the fixture's fits ran to tol 1e-10: fold by fold, the two optima are compared
    const auto cv = lumen::eval::cross_validate(X, y, d, 3, fold, 5, o);
    EXPECT_TRUE(cv.converged) << C;
    const auto want = e[fmt::format("C={:g}", C)].get<std::vector<double>>();
    for (std::size_t f = 0; f < 5; ++f) EXPECT_NEAR(cv.accuracy[f], want[f], 0.01) << "C " << C << " fold " << f;
  }
}

TEST(EvalProbe, ControlTaskAndBaselineAndSelectivity) {
  const auto table = lumen::io::open_table(kHere + "table.vec");
  auto labels = lumen::eval::read_label_set(kHere + "labels.tsv");
  labels.words.push_back({"not-in-the-table", "noun", 0});
  lumen::eval::ProbeOptions o;
  o.logistic.threads = 1;
  const auto r = lumen::eval::run_probe(table, labels, o);
  EXPECT_EQ(r.words.size(), 300u);
  EXPECT_EQ(r.missing, std::vector<std::string>{"not-in-the-table"});
  EXPECT_GT(r.accuracy, 0.8);
  EXPECT_LT(r.majority, 0.5);
  // Shuffled labels cannot be read off held-out words: the control sits near chance, selectivity is large.
  EXPECT_LT(r.control_accuracy, 0.5);
  EXPECT_NEAR(r.selectivity, r.accuracy - r.control_accuracy, 1e-12);
  EXPECT_GT(r.selectivity, 0.3);
  // The control keeps each class's size; the folds are stratified (each fold within one word of even).
  auto sorted = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(r.labels), sorted(r.control_labels));
  EXPECT_NE(r.labels, r.control_labels);
  for (int f = 0; f < 5; ++f) EXPECT_NEAR(std::count(r.fold.begin(), r.fold.end(), f), 60, 1);
  // Deterministic for a seed.
  const auto again = lumen::eval::run_probe(table, labels, o);
  EXPECT_EQ(again.fold, r.fold);
  EXPECT_EQ(again.accuracy, r.accuracy);
}

// Long fits show progress fit by fit (3,000 classes ran over 60 s with nothing shown): 2 x folds steps, counted
// up one at a time whether the probe and control chains run on one thread or on two.
TEST(EvalProbe, ProgressCountsEveryFitOfBothChains) {
  const auto table = lumen::io::open_table(kHere + "table.vec");
  const auto labels = lumen::eval::read_label_set(kHere + "labels.tsv");
  for (const std::size_t threads : {1u, 2u}) {
    lumen::eval::ProbeOptions o;
    o.folds = 4;
    o.logistic.threads = threads;
    std::vector<std::size_t> done;
    std::size_t probe = 0, control = 0;
    o.progress = [&](const std::string& stage, std::size_t d, std::size_t total) {
      EXPECT_EQ(total, 8u);
      done.push_back(d);
      probe += stage == "probe" && d > 0;
      control += stage == "control";
    };
    const auto r = lumen::eval::run_probe(table, labels, o);
    ASSERT_EQ(done.size(), 9u) << threads;
    for (std::size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i) << threads;
    EXPECT_EQ(probe, 4u);
    EXPECT_EQ(control, 4u);
    EXPECT_EQ(r.probe.accuracy.size(), 4u);
  }
}

TEST(EvalProbe, TooFewWordsOrClassesInTheTableAreClearErrors) {
  const auto table = lumen::io::open_table(kHere + "table.vec");
  lumen::eval::ProbeOptions o;
  const auto unknown = lumen::eval::parse_label_set("cat\tnoun\nrun\tverb\n", "few.tsv");
  try {
    lumen::eval::run_probe(table, unknown, o);
    FAIL() << "no error";
  } catch (const lumen::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("few.tsv: 0 of its 2 words are in the table"), std::string::npos) << e.what();
  }
  // Both classes named, but only one has words in the table.
  const auto one =
      lumen::eval::parse_label_set("w001\tnoun\nw002\tnoun\nw003\tnoun\nw004\tnoun\nw005\tnoun\nzz\tverb\n", "one.tsv");
  EXPECT_THROW(lumen::eval::run_probe(table, one, o), lumen::InputError);
  o.folds = 1;
  EXPECT_THROW(lumen::eval::run_probe(table, one, o), lumen::UsageError);
  lumen::eval::LogisticOptions bad;
  bad.C = 0;
  const double x[2] = {1, 2};
  const int y[2] = {0, 1};
  EXPECT_THROW(lumen::eval::fit_logistic(x, y, 2, 1, 2, bad), lumen::UsageError);
}

// A class with fewer words than folds is refused, named (500 two-word classes gave an accuracy of 0.0000).
TEST(EvalProbe, ClassesWithFewerWordsThanFoldsAreNamed) {
  const auto table = lumen::io::open_table(kHere + "table.vec");
  lumen::eval::ProbeOptions o;  // 5 folds
  std::string tsv;
  for (int i = 1; i <= 5; ++i) tsv += fmt::format("w{:03}\tnoun\n", i);
  for (int i = 6; i <= 10; ++i) tsv += fmt::format("w{:03}\tverb\n", i);
  EXPECT_NO_THROW(lumen::eval::run_probe(table, lumen::eval::parse_label_set(tsv, "ok.tsv"), o));
  const auto thin = lumen::eval::parse_label_set(tsv + "w011\tadj\nw012\tadj\nw013\tadv\n", "thin.tsv");
  try {
    lumen::eval::run_probe(table, thin, o);
    FAIL() << "no error";
  } catch (const lumen::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("thin.tsv: 2 of its 4 classes have fewer words in the table than the 5 "
                                         "folds"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("'adj' (2), 'adv' (1)"), std::string::npos) << e.what();
  }
  o.folds = 2;  // two words are enough for two folds
  EXPECT_NO_THROW(
      lumen::eval::run_probe(table, lumen::eval::parse_label_set(tsv + "w011\tadj\nw012\tadj\n", "two.tsv"), o));
}

// Float rows are widened to double block by block: the fit is the one on the same rows given as doubles, bit for
// bit, over more rows than one block holds.
TEST(Logistic, FloatRowsFitExactlyAsTheirDoubles) {
  constexpr std::size_t n = 1500, d = 40, K = 3;
  lumen::Rng rng(7);
  std::vector<float> xf(n * d);
  std::vector<int> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<int>(rng.below(K));
    for (std::size_t j = 0; j < d; ++j)
      xf[i * d + j] = static_cast<float>(rng.normal() + (j % K == static_cast<std::size_t>(y[i]) ? 0.5 : 0.0));
  }
  const std::vector<double> xd(xf.begin(), xf.end());
  lumen::eval::LogisticOptions o;
  o.threads = 1;
  const auto a = lumen::eval::fit_logistic(xf.data(), y.data(), n, d, K, o);
  const auto b = lumen::eval::fit_logistic(xd.data(), y.data(), n, d, K, o);
  EXPECT_TRUE(a.converged);
  EXPECT_GT(a.iterations, 0u);
  EXPECT_EQ(a.W, b.W);
  EXPECT_EQ(a.b, b.b);
  EXPECT_EQ(a.predict(xf.data(), n), b.predict(xd.data(), n));
}

}  // namespace test_probe
