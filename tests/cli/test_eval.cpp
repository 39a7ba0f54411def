// `lumen eval analogies|similarity`: the report, JSON, comparisons of several tables and files, malformed lines
// (skipped with their line number, or rejected with --strict), the clear error when nothing can be scored,
// and usage errors.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace test_eval {

using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args); }

struct TempFile {
  std::string path;
  explicit TempFile(const std::string& contents) {
    path = (std::filesystem::temp_directory_path() / "lumen-eval-bench-XXXXXX").string();
    const int fd = mkstemp(path.data());
    if (fd >= 0) close(fd);
    std::ofstream(path, std::ios::binary) << contents;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

const std::string kData = LUMEN_DATA_DIR;
const std::string kTable = std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/analogy_table.vec";
const std::string kQuestions = kData + "/questions-words.txt";
const std::string kLee = kData + "/formats/lee_fasttext.vec";
const std::string kW2v = kData + "/formats/word2vec_pre_kv_c";

TEST(CliEval, AnalogiesJsonHasGensimsCounts) {
  // The numbers gensim's evaluate_word_analogies gives for this table (tests/data/eval/expected.json).
  const CliRun r = lumen("eval analogies " + kTable + " " + kQuestions + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["correct"], 10369);
  EXPECT_EQ(j["answered"], 19544);
  EXPECT_EQ(j["skipped"], 0);
  EXPECT_NEAR(j["accuracy"].get<double>(), 10369.0 / 19544.0, 1e-12);
  ASSERT_EQ(j["sections"].size(), 14u);
  EXPECT_EQ(j["sections"][0]["name"], "capital-common-countries");
  EXPECT_EQ(j["semantic"]["answered"].get<int>() + j["syntactic"]["answered"].get<int>(), 19544);
  EXPECT_TRUE(j["malformed"].empty());
  EXPECT_EQ(r.err, "");  // no progress bar into a pipe, no warnings
}

TEST(CliEval, AnalogiesReportRestrictAndMethods) {
  const CliRun r = lumen("eval analogies " + kTable + " " + kQuestions + " --restrict 500");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("the first 500 rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("capital-common-countries"), std::string::npos);
  EXPECT_NE(r.out.find("semantic"), std::string::npos);
  EXPECT_NE(r.out.find("Total accuracy"), std::string::npos);
  EXPECT_NE(r.out.find("269"), std::string::npos);  // gensim: 269 of 449 with restrict_vocab=500
  const CliRun mul = lumen("eval analogies " + kTable + " " + kQuestions + " --method mul --json");
  ASSERT_EQ(mul.code, 0) << mul.err;
  EXPECT_EQ(nlohmann::json::parse(mul.out)["correct"], 2856);  // gensim's most_similar_cosmul in the same loop
  EXPECT_EQ(lumen("eval analogies " + kTable + " " + kQuestions + " --method cos").code, 2);
}

TEST(CliEval, NoExcludeShowsHowOftenTheAnswerIsAnInput) {
  const CliRun r = lumen("eval analogies " + kTable + " " + kQuestions + " --no-exclude");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("inputs NOT excluded"), std::string::npos);
  EXPECT_NE(r.out.find("the best candidate is one of the three inputs in"), std::string::npos) << r.out;
  const auto j =
      nlohmann::json::parse(lumen("eval analogies " + kTable + " " + kQuestions + " --no-exclude --json").out);
  EXPECT_GT(j["top_is_input"].get<double>(), 0.3);  // on this table, 39%: mostly b itself
  EXPECT_LT(j["correct"].get<int>(), 10369);
  EXPECT_EQ(j["exclude_inputs"], false);
}

TEST(CliEval, SimilarityJson) {
  const CliRun r = lumen("eval similarity " + kW2v + " " + kData + "/wordsim353.tsv --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["pearson"].get<double>(), 0.1860663650402654, 1e-6);  // gensim's evaluate_word_pairs
  EXPECT_NEAR(j["spearman"].get<double>(), 0.18516048467872517, 1e-6);
  EXPECT_NEAR(j["oov_percent"].get<double>(), 83.0028328611898, 1e-9);
  EXPECT_NEAR(j["oov_ratio"].get<double>(), 0.830028328611898, 1e-11);
  EXPECT_EQ(j["pairs"].get<int>() + j["oov"].get<int>(), 353);
  const CliRun text = lumen("eval similarity " + kW2v + " " + kData + "/wordsim353.tsv");
  EXPECT_NE(text.out.find("spearman  0.1852"), std::string::npos) << text.out;
}

TEST(CliEval, SeveralTablesAndFilesCompare) {
  const CliRun r = lumen("eval similarity " + kLee + " " + kW2v + " --files " + kData + "/wordsim353.tsv " + kData +
                         "/simlex999.txt");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wordsim353.tsv"), std::string::npos);
  EXPECT_NE(r.out.find("simlex999.txt"), std::string::npos);
  EXPECT_NE(r.out.find("lee_fasttext.vec"), std::string::npos);
  EXPECT_NE(r.out.find("word2vec_pre_kv_c"), std::string::npos);
  const CliRun j = lumen("eval similarity " + kLee + " " + kW2v + " --files " + kData + "/wordsim353.tsv " + kData +
                         "/simlex999.txt --json");
  ASSERT_EQ(j.code, 0) << j.err;
  const auto results = nlohmann::json::parse(j.out)["results"];
  ASSERT_EQ(results.size(), 4u);
  EXPECT_NEAR(results[3]["spearman"].get<double>(), -0.03810621998862847, 1e-6);  // w2v on simlex (gensim)
  // Analogies: a table that answers nothing gets an error cell, not a failed comparison.
  const CliRun a =
      lumen("eval analogies " + kTable + " " + kData + "/formats/crime-and-punishment.vec " + kQuestions + " --json");
  ASSERT_EQ(a.code, 0) << a.err;
  const auto ar = nlohmann::json::parse(a.out)["results"];
  ASSERT_EQ(ar.size(), 2u);
  EXPECT_EQ(ar[0]["correct"], 10369);
  EXPECT_TRUE(ar[1].contains("error"));
  const CliRun at = lumen("eval analogies " + kTable + " " + kLee + " " + kQuestions);
  ASSERT_EQ(at.code, 0) << at.err;
  EXPECT_NE(at.out.find("53.05% (10369/19544)"), std::string::npos) << at.out;
}

TEST(CliEval, MalformedLinesAreReportedOrRejected) {
  const TempFile q(": family\nboy girl brother sister\nboy girl brother\nking queen man woman\n");
  const CliRun r = lumen("eval analogies " + kTable + " " + q.path + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["malformed"].size(), 1u);
  EXPECT_EQ(j["malformed"][0]["line"], 3);
  const CliRun t = lumen("eval analogies " + kTable + " " + q.path);
  EXPECT_EQ(t.code, 0);
  EXPECT_NE(t.err.find(q.path + ":3: expected a question of 4 words"), std::string::npos) << t.err;
  const CliRun s = lumen("eval analogies " + kTable + " " + q.path + " --strict");
  EXPECT_EQ(s.code, 1);
  EXPECT_NE(s.err.find(":3"), std::string::npos) << s.err;

  const TempFile p("# c\ncat\tdog\t7\ncat\tdog\nold\tnew\tmany\n");
  const CliRun pr = lumen("eval similarity " + kW2v + " " + p.path);
  EXPECT_NE(pr.err.find(p.path + ":3:"), std::string::npos) << pr.err;
  EXPECT_NE(pr.err.find(p.path + ":4:"), std::string::npos) << pr.err;
  EXPECT_EQ(lumen("eval similarity " + kW2v + " " + p.path + " --strict").code, 1);
}

TEST(CliEval, BenchmarkFromStdin) {
  const CliRun r = lumen("eval similarity " + kW2v + " - --json < " + kData + "/wordsim353.tsv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NEAR(nlohmann::json::parse(r.out)["spearman"].get<double>(), 0.18516048467872517, 1e-6);
}

TEST(CliEval, NothingToScoreIsAClearError) {
  const TempFile q(": s\nzzz yyy xxx www\n");
  const CliRun r = lumen("eval analogies " + kTable + " " + q.path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("none of its 1 questions"), std::string::npos) << r.err;
  const TempFile p("zzz\tyyy\t3\n");
  const CliRun s = lumen("eval similarity " + kTable + " " + p.path + " --json");
  EXPECT_EQ(s.code, 1);
  EXPECT_NE(s.err.find("none of its 1 pairs"), std::string::npos) << s.err;
  EXPECT_EQ(lumen("eval analogies " + kTable + " /nonexistent/q.txt").code, 1);
}

TEST(CliEval, AnalogiesLayerByLayerOnAModel) {
  // The GPT-2 test checkpoint; read with "{}", a letter is one token of its byte-level BPE, "xylophone" is not.
  const std::string gpt = lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2");
  const TempFile q(": letters\na b c d\nb c d e\nc d e f\na xylophone c d\n");
  const CliRun t = lumen("eval analogies " + gpt + " " + q.path + " --layers --context \"{}\"");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("layer by layer: 6 of its 7 words are one token"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("<- best"), std::string::npos) << t.out;
  const auto svg = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-analogy-layers.svg");
  const CliRun j = lumen("eval analogies " + gpt + " " + q.path + " --layers --context \"{}\" --json -o " +
                         lumen_cli::detail::quote(svg.string()));
  ASSERT_EQ(j.code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  ASSERT_EQ(doc["layers"].size(), 3u);  // layer 0 and the fixture's 2 blocks
  EXPECT_EQ(doc["multi_token"], nlohmann::json::array({"xylophone"}));
  EXPECT_EQ(doc["layers"][2]["answered"], 3);
  EXPECT_EQ(doc["layers"][2]["skipped"], 1);
  EXPECT_TRUE(std::filesystem::exists(svg));
  std::filesystem::remove(svg);
  // --context and -o belong to --layers; --layers scores one model on one file.
  const CliRun stray = lumen("eval analogies " + kTable + " " + kQuestions + " -o x.png");
  EXPECT_EQ(stray.code, 2);
  EXPECT_NE(stray.err.find("--output goes with --layers"), std::string::npos) << stray.err;
  EXPECT_EQ(lumen("eval analogies " + gpt + " " + gpt + " " + q.path + " --layers").code, 2);
  const CliRun none = lumen("eval analogies " + gpt + " " + q.path + " --layers --context nothing");
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("must hold {} exactly once"), std::string::npos) << none.err;
}

TEST(CliEval, UsageErrors) {
  EXPECT_EQ(lumen("eval analogies " + kTable).code, 2);  // no benchmark file
  EXPECT_EQ(lumen("eval").code, 2);                      // no subcommand
  EXPECT_EQ(lumen("eval analogies " + kTable + " " + kQuestions + " --method cosine").code, 2);
  EXPECT_EQ(lumen("eval analogies " + kTable + " " + kQuestions + " --restrict -5").code, 2);
  EXPECT_EQ(lumen("eval similarity " + kTable + " " + kQuestions + " --restrict x").code, 2);
  const CliRun h = lumen("eval analogies --help");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("Example"), std::string::npos);
  EXPECT_NE(h.out.find("--no-exclude"), std::string::npos);
}

}  // namespace test_eval
