// Query words outside a fastText model's vocabulary get their subword vectors (search::lookup), and neighbours,
// similarity and analogies with them equal gensim's FastTextKeyedVectors on crime-and-punishment.bin.
// Expected values: tests/data/search/fasttext_oov_gensim.json, written by make_fasttext_oov.py beside it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/query_word.hpp"
#include "lumen/search/searcher.hpp"

using namespace lumen;
using namespace lumen::search;

namespace test_query_word {

const nlohmann::json& expected() {
  static const nlohmann::json j = [] {
    std::ifstream in(LUMEN_SOURCE_DIR "/tests/data/search/fasttext_oov_gensim.json");
    return nlohmann::json::parse(in);
  }();
  return j;
}

const Table& model_table() {
  static const Table t = io::open_table(std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.bin");
  return t;
}

// The same tokens in the same order, scores within 1e-5 (the expected lists have no near-ties).
void expect_same(const Table& t, const std::vector<Neighbour>& got, const nlohmann::json& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(t.vocab.token(got[i].id), want[i][0].get<std::string>()) << "rank " << i + 1;
    EXPECT_NEAR(got[i].score, want[i][1].get<double>(), 1e-5) << "rank " << i + 1;
  }
}

TEST(QueryWord, OutOfVocabularyVectorsEqualGensims) {
  const Table& t = model_table();
  for (const auto& [word, want] : expected()["vectors"].items()) {
    SCOPED_TRACE(word);
    ASSERT_FALSE(t.vocab.find(word).has_value());
    const QueryWord q = lookup(t, word);
    EXPECT_FALSE(q.id.has_value());
    ASSERT_EQ(q.vector.size(), want.size());
    for (std::size_t k = 0; k < q.vector.size(); ++k) EXPECT_NEAR(q.vector[k], want[k].get<double>(), 1e-6);
  }
}

TEST(QueryWord, InVocabularyWordIsItsRow) {
  const Table& t = model_table();
  const QueryWord q = lookup(t, "man");
  ASSERT_TRUE(q.id.has_value());
  std::vector<float> row(t.d());
  t.E.row_f32(static_cast<std::size_t>(*q.id), row.data());
  EXPECT_EQ(q.vector, row);
}

TEST(QueryWord, NeighboursSimilarityAnalogiesEqualGensim) {
  const Table& t = model_table();
  const Searcher s(t);
  for (const auto& e : expected()["neighbours"]) {
    SCOPED_TRACE(e["query"].get<std::string>());
    const QueryWord q = lookup(t, e["query"].get<std::string>());
    SearchOptions o;
    o.k = e["neighbours"].size();
    expect_same(t, s.search(q.vector, o), e["neighbours"]);  // nothing to leave out: the word has no row
  }
  for (const auto& e : expected()["similarity"]) {
    const QueryWord a = lookup(t, e["w1"].get<std::string>()), b = lookup(t, e["w2"].get<std::string>());
    EXPECT_NEAR(similarity(s, a, b), e["cosine"].get<double>(), 1e-6) << e.dump();
    EXPECT_NEAR(similarity(s, b, a), e["cosine"].get<double>(), 1e-6) << e.dump();
  }
  for (const auto& e : expected()["analogy"]) {
    SCOPED_TRACE(e["a"].get<std::string>() + " " + e["b"].get<std::string>() + " " + e["c"].get<std::string>());
    const QueryWord a = lookup(t, e["a"].get<std::string>()), b = lookup(t, e["b"].get<std::string>()),
                    c = lookup(t, e["c"].get<std::string>());
    AnalogyOptions o;
    o.k = 5;
    expect_same(t, analogy(s, a, b, c, o).answers, e["add"]);
    o.method = AnalogyMethod::mul;
    expect_same(t, analogy(s, a, b, c, o).answers, e["mul"]);
  }
}

TEST(QueryWord, RowsGiveTheSameAnswersAsIds) {
  const Table& t = model_table();
  const Searcher s(t);
  const QueryWord a = lookup(t, "man"), b = lookup(t, "young"), c = lookup(t, "he");
  for (const auto method : {AnalogyMethod::add, AnalogyMethod::mul}) {
    AnalogyOptions o;
    o.method = method;
    o.k = 7;
    const auto by_id = analogy(s, *a.id, *b.id, *c.id, o, *lookup(t, "landlady").id);
    const auto by_word = analogy(s, a, b, c, o, *lookup(t, "landlady").id);
    ASSERT_EQ(by_id.answers.size(), by_word.answers.size());
    for (std::size_t i = 0; i < by_id.answers.size(); ++i) {
      EXPECT_EQ(by_id.answers[i].id, by_word.answers[i].id);
      EXPECT_EQ(by_id.answers[i].score, by_word.answers[i].score);
    }
    EXPECT_EQ(by_id.rank, by_word.rank);
  }
  EXPECT_EQ(similarity(s, a, b), s.similarity(*a.id, *b.id));
}

TEST(QueryWord, UnknownWithoutSubwordsOrNgrams) {
  // A text table has no subword model: an unknown word is an UnknownTokenError with suggestions.
  const Table text = io::open_table(std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.vec");
  EXPECT_EQ(text.subwords, nullptr);
  try {
    (void)lookup(text, "mann");
    FAIL() << "no error";
  } catch (const UnknownTokenError& e) {
    EXPECT_EQ(e.token(), "mann");
    EXPECT_FALSE(e.suggestions().empty());
  }
  EXPECT_TRUE(lookup(model_table(), "mann").vector.size() == model_table().d());
}

}  // namespace test_query_word
