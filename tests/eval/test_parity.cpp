// Parity with gensim 4.2 (evaluate_word_analogies, most_similar_cosmul in its loop, evaluate_word_pairs) on the
// sample tables and the reference benchmark files. Expected values: tests/data/eval/expected.json, made by
// tests/data/eval/make_expected.py.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/core/error.hpp"
#include "lumen/eval/analogies.hpp"
#include "lumen/eval/similarity.hpp"
#include "lumen/io/open.hpp"

namespace test_parity {

using nlohmann::json;

const std::string kData = LUMEN_DATA_DIR;
const std::string kHere = std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/";

json expected() {
  std::ifstream f(kHere + "expected.json");
  return json::parse(f);
}

std::string table_path(const std::string& name) {
  return name == "analogy_table.vec" ? kHere + name : kData + "/formats/" + name;
}

const lumen::Table& table(const std::string& name) {
  static std::map<std::string, lumen::Table> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, lumen::io::open_table(table_path(name))).first;
  return it->second;
}

TEST(EvalParity, AnalogiesEqualGensim) {
  const auto questions = lumen::eval::read_analogy_set(kData + "/questions-words.txt");
  int checked = 0;
  const json all = expected();
  for (const auto& e : all["analogies"]) {
    const std::string name = e["table"];
    SCOPED_TRACE(name + " restrict=" + std::to_string(e["restrict"].get<int>()) + " case_insensitive=" +
                 std::to_string(e["case_insensitive"].get<bool>()) + " method=" + e["method"].get<std::string>());
    lumen::eval::AnalogyOptions o;
    o.restrict = e["restrict"];
    o.case_insensitive = e["case_insensitive"];
    o.method = lumen::eval::parse_analogy_method(e["method"]);
    if (e["answered"].get<int>() == 0) {
      EXPECT_THROW(lumen::eval::evaluate_analogies(table(name), questions, o), lumen::InputError);
      continue;
    }
    const auto r = lumen::eval::evaluate_analogies(table(name), questions, o);
    EXPECT_EQ(r.total.correct, e["correct"].get<std::size_t>());
    EXPECT_EQ(r.total.answered, e["answered"].get<std::size_t>());
    EXPECT_EQ(r.total.skipped, e["skipped"].get<std::size_t>());
    EXPECT_NEAR(r.total.accuracy(), e["accuracy"].get<double>(), 1e-12);
    ASSERT_EQ(r.sections.size(), e["sections"].size());
    for (std::size_t s = 0; s < r.sections.size(); ++s) {
      EXPECT_EQ(r.sections[s].name, e["sections"][s]["name"].get<std::string>());
      EXPECT_EQ(r.sections[s].correct, e["sections"][s]["correct"].get<std::size_t>()) << r.sections[s].name;
      EXPECT_EQ(r.sections[s].answered, e["sections"][s]["answered"].get<std::size_t>()) << r.sections[s].name;
    }
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

TEST(EvalParity, SimilarityEqualsGensim) {
  std::map<std::string, lumen::eval::WordPairSet> files;
  for (const char* f : {"wordsim353.tsv", "simlex999.txt"}) files[f] = lumen::eval::read_word_pairs(kData + "/" + f);
  int checked = 0;
  const json all = expected();
  for (const auto& e : all["similarity"]) {
    const std::string name = e["table"], file = e["file"];
    SCOPED_TRACE(name + " " + file + " restrict=" + std::to_string(e["restrict"].get<int>()) +
                 " case_insensitive=" + std::to_string(e["case_insensitive"].get<bool>()));
    lumen::eval::SimilarityOptions o;
    o.restrict = e["restrict"];
    o.case_insensitive = e["case_insensitive"];
    if (e.contains("error")) {
      EXPECT_THROW(lumen::eval::evaluate_similarity(table(name), files[file], o), lumen::InputError);
      continue;
    }
    const auto r = lumen::eval::evaluate_similarity(table(name), files[file], o);
    EXPECT_NEAR(r.pearson, e["pearson"].get<double>(), 1e-6);
    EXPECT_NEAR(r.spearman, e["spearman"].get<double>(), 1e-6);
    EXPECT_NEAR(r.oov_ratio() * 100.0, e["oov_percent"].get<double>(), 1e-9);
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

}  // namespace test_parity
