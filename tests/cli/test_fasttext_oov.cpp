// A word missing from a fastText .bin gets its vector from subword n-grams in neighbours, similarity and analogy,
// as fastText and gensim do: the binary's answers equal gensim's (tests/data/search/fasttext_oov_gensim.json).
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace test_fasttext_oov {

using lumen_cli::CliRun;

const std::string kModel = std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.bin";

const nlohmann::json& expected() {
  static const nlohmann::json j = [] {
    std::ifstream in(LUMEN_SOURCE_DIR "/tests/data/search/fasttext_oov_gensim.json");
    return nlohmann::json::parse(in);
  }();
  return j;
}

CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args, {.timeout_s = 120}); }

void expect_same(const nlohmann::json& got, const nlohmann::json& want) {
  ASSERT_EQ(got.size(), want.size()) << got.dump();
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i]["token"], want[i][0]) << "rank " << i + 1;
    EXPECT_NEAR(got[i]["score"].get<double>(), want[i][1].get<double>(), 1e-5) << "rank " << i + 1;
  }
}

TEST(CliFastTextOov, NeighboursOfAWordOutsideTheVocabulary) {
  for (const auto& e : expected()["neighbours"]) {
    const std::string word = e["query"].get<std::string>();
    const CliRun r = lumen("neighbours " + kModel + " '" + word + "' -k 5 --json");
    ASSERT_EQ(r.code, 0) << r.cmdline << "\n" << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["id"].is_null()) << r.out;
    expect_same(j["neighbours"], e["neighbours"]);
  }
  const std::string word = expected()["neighbours"][0]["query"].get<std::string>();
  const CliRun text = lumen("neighbours " + kModel + " '" + word + "' -k 2");
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("subword"), std::string::npos) << "the text says where the vector came from\n" << text.out;
}

TEST(CliFastTextOov, SimilarityWithWordsOutsideTheVocabulary) {
  for (const auto& e : expected()["similarity"]) {
    const CliRun r = lumen("similarity " + kModel + " '" + e["w1"].get<std::string>() + "' '" +
                           e["w2"].get<std::string>() + "' --json");
    ASSERT_EQ(r.code, 0) << r.cmdline << "\n" << r.err;
    EXPECT_NEAR(nlohmann::json::parse(r.out)["score"].get<double>(), e["cosine"].get<double>(), 1e-6) << r.out;
  }
}

TEST(CliFastTextOov, AnalogyWithAWordOutsideTheVocabulary) {
  for (const auto& e : expected()["analogy"]) {
    const std::string words =
        "'" + e["a"].get<std::string>() + "' '" + e["b"].get<std::string>() + "' '" + e["c"].get<std::string>() + "'";
    const CliRun add = lumen("analogy " + kModel + " " + words + " -k 5 --json");
    ASSERT_EQ(add.code, 0) << add.cmdline << "\n" << add.err;
    expect_same(nlohmann::json::parse(add.out)["answers"], e["add"]);
    const CliRun mul = lumen("analogy " + kModel + " " + words + " -k 5 --method mul --json");
    ASSERT_EQ(mul.code, 0) << mul.cmdline << "\n" << mul.err;
    expect_same(nlohmann::json::parse(mul.out)["answers"], e["mul"]);
  }
}

TEST(CliFastTextOov, OtherFormatsStillRefuseUnknownWords) {
  const CliRun r = lumen("similarity " + std::string(LUMEN_DATA_DIR) +
                         "/formats/crime-and-punishment.vec "
                         "раскольниковъ man");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("раскольниковъ"), std::string::npos) << r.err;
}

}  // namespace test_fasttext_oov
