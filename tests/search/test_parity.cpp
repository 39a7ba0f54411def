// Parity with gensim on the sample tables in LUMEN_DATA_DIR/formats: most_similar (neighbours),
// most_similar(positive, negative) (3CosAdd), most_similar_cosmul (3CosMul), similarity, doesnt_match.
// Expected values: tests/data/search/gensim_expected.json, written by make_expected.py beside it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lumen/io/open.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/searcher.hpp"

using namespace lumen;
using namespace lumen::search;

namespace test_parity {

const nlohmann::json& expected() {
  static const nlohmann::json j = [] {
    std::ifstream in(LUMEN_SOURCE_DIR "/tests/data/search/gensim_expected.json");
    return nlohmann::json::parse(in);
  }();
  return j;
}

// The same tokens in the same order and scores within 1e-5. gensim sorts with numpy's argsort, which does not
// order exact ties by index: two neighbours whose scores agree within 1e-6 may appear in either order.
void expect_same(const Table& t, const std::vector<Neighbour>& got, const nlohmann::json& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::string wtok = want[i][0].get<std::string>();
    const double wscore = want[i][1].get<double>();
    EXPECT_NEAR(got[i].score, wscore, 1e-5) << "rank " << i + 1;
    if (t.vocab.token(got[i].id) != wtok) {
      const auto wid = t.vocab.find(wtok);
      ASSERT_TRUE(wid.has_value()) << wtok;
      bool tie = false;
      for (const auto& n : got) tie = tie || (n.id == *wid && std::fabs(n.score - got[i].score) < 1e-6);
      EXPECT_TRUE(tie) << "rank " << i + 1 << ": lumen '" << t.vocab.token(got[i].id) << "', gensim '" << wtok << "'";
    }
  }
}

class Parity : public ::testing::TestWithParam<std::size_t> {};

TEST_P(Parity, GensimResultsOnSampleTable) {
  const auto& e = expected()["tables"][GetParam()];
  const std::string file = e["file"].get<std::string>();
  SCOPED_TRACE(file);
  const Table t = io::open_table(std::string(LUMEN_DATA_DIR) + "/formats/" + file);
  ASSERT_EQ(t.V(), e["V"].get<std::size_t>());
  ASSERT_EQ(t.d(), e["d"].get<std::size_t>());
  const Searcher s(t);
  for (const auto& q : e["neighbours"]) {
    const std::string word = q["query"].get<std::string>();
    SCOPED_TRACE("neighbours of " + word);
    const Id id = t.vocab.require(word);
    SearchOptions o;
    o.k = 10;
    o.exclude = {id};
    expect_same(t, s.search(s.row(id), o), q["neighbours"]);
  }
  for (const auto& q : e["analogies"]) {
    const Id a = t.vocab.require(q["a"].get<std::string>()), b = t.vocab.require(q["b"].get<std::string>()),
             c = t.vocab.require(q["c"].get<std::string>());
    SCOPED_TRACE("analogy " + q["a"].get<std::string>() + " " + q["b"].get<std::string>() + " " +
                 q["c"].get<std::string>());
    AnalogyOptions o;
    o.k = 10;
    expect_same(t, analogy(s, a, b, c, o).answers, q["add"]);
    o.method = AnalogyMethod::mul;
    expect_same(t, analogy(s, a, b, c, o).answers, q["mul"]);
  }
  for (const auto& q : e["similarity"]) {
    const Id a = t.vocab.require(q["w1"].get<std::string>()), b = t.vocab.require(q["w2"].get<std::string>());
    EXPECT_NEAR(s.similarity(a, b), q["score"].get<double>(), 1e-5);
  }
  for (const auto& q : e["doesnt_match"]) {
    std::vector<Id> ids;
    for (const auto& w : q["words"]) ids.push_back(t.vocab.require(w.get<std::string>()));
    EXPECT_EQ(t.vocab.token(doesnt_match(s, ids).id.value()), q["answer"].get<std::string>());
  }
}

INSTANTIATE_TEST_SUITE_P(SampleTables, Parity, ::testing::Range<std::size_t>(0, 5));

}  // namespace test_parity
