// Commands that take a table use the default one when none is given (the README), and the rule that says whether
// the first argument is the table is one rule for every such command: the first argument is the table if it
// names an existing file or directory, a built-in table (toy, default) or ends in a table extension; otherwise
// every argument is a word looked up in the default table. --table says it explicitly. When the choice leads to
// an error, a note says which argument was taken as what.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace test_table_argument {

using lumen_cli::CliRun;

const std::string kTable = std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.vec";  // 291 x 5

// An empty working directory per test, removed at the end.
class TableArgument : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "lumen-table-arg-XXXXXX").string();
    ASSERT_NE(::mkdtemp(t.data()), nullptr);
    dir_ = t;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // lumen ARGS in the directory, with the sample table as the default table.
  CliRun lumen(const std::string& args) const {
    return lumen_cli::run_cli(args,
                              {.env = "LUMEN_DEFAULT_TABLE='" + kTable + "'", .cwd = dir_.string(), .timeout_s = 120});
  }
  fs::path dir_;
};

TEST_F(TableArgument, WordsAloneUseTheDefaultTable) {
  for (const auto& [command, words] : std::vector<std::pair<std::string, std::string>>{
           {"similarity", "man young"},
           {"neighbours", "man he -k 3"},
           {"analogy", "man young he -k 3"},
           {"doesnt-match", "man young he landlady"},
           {"onehot", "man"},
       }) {
    const CliRun named = lumen(command + " default " + words + " --json");
    const CliRun implied = lumen(command + " " + words + " --json");
    const CliRun flag = lumen(command + " --table default " + words + " --json");
    ASSERT_EQ(named.code, 0) << named.cmdline << "\n" << named.err;
    EXPECT_EQ(implied.code, 0) << implied.cmdline << "\n" << implied.err;
    EXPECT_EQ(implied.out, named.out) << implied.cmdline;
    EXPECT_EQ(flag.code, 0) << flag.cmdline << "\n" << flag.err;
    EXPECT_EQ(flag.out, named.out) << flag.cmdline;
  }
  // The default table is the file LUMEN_DEFAULT_TABLE names.
  const CliRun file = lumen("similarity " + kTable + " man young --json");
  ASSERT_EQ(file.code, 0) << file.err;
  EXPECT_EQ(lumen("similarity man young --json").out, file.out);
}

TEST_F(TableArgument, TableOnlyCommandsUseTheDefaultTable) {
  const CliRun info = lumen("info --json");
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("\"default\""), std::string::npos) << info.out;
  const CliRun named = lumen("info --table " + kTable + " --json");
  EXPECT_EQ(named.code, 0) << named.err;
  const CliRun project = lumen("project --method pca -o map.csv --json");
  EXPECT_EQ(project.code, 0) << project.err;
  EXPECT_TRUE(fs::exists(dir_ / "map.csv"));
}

TEST_F(TableArgument, EvalWithOnlyBenchmarkFilesUsesTheDefaultTable) {
  const std::string bench = std::string(LUMEN_DATA_DIR) + "/wordsim353.tsv";
  const auto eval = [&](const std::string& args) {  // English words: the default table is lee_fasttext.vec here
    return lumen_cli::run_cli(args, {.env = "LUMEN_DEFAULT_TABLE='" LUMEN_DATA_DIR "/formats/lee_fasttext.vec'",
                                     .cwd = dir_.string(),
                                     .timeout_s = 120});
  };
  const CliRun named = eval("eval similarity default " + bench + " --json");
  ASSERT_EQ(named.code, 0) << named.err;
  const CliRun implied = eval("eval similarity --files " + bench + " --json");
  EXPECT_EQ(implied.code, 0) << implied.cmdline << "\n" << implied.err;
  auto a = nlohmann::json::parse(implied.out), b = nlohmann::json::parse(named.out);
  a.erase("seconds");
  b.erase("seconds");
  EXPECT_EQ(a, b) << implied.cmdline;
  EXPECT_EQ(a["table"], "default");
  // One positional could be a table or a benchmark file: refused, saying how to ask for either.
  const CliRun one = eval("eval similarity " + bench);
  EXPECT_EQ(one.code, 2) << one.err;
  EXPECT_NE(one.err.find("--files FILE alone"), std::string::npos) << one.err;
}

TEST_F(TableArgument, AWordThatIsNoTableSaysItWasTakenAsAWord) {
  const CliRun r = lumen("neighbours glove.tx king");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("'glove.tx' is not in the vocabulary"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: 'glove.tx' was taken as a word"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(kTable), std::string::npos) << "the note names the default table\n" << r.err;
}

TEST_F(TableArgument, AMissingTableFileIsReportedAsAFile) {
  const CliRun r = lumen("similarity missing.vec man young");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("missing.vec"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("unknown word"), std::string::npos) << r.err;
}

TEST_F(TableArgument, AFileNamedLikeAWordIsTheTableAndTheNoteSaysSo) {
  std::ofstream(dir_ / "man") << "not a table\n";
  const CliRun r = lumen("similarity man young");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("note: 'man' was taken as the table"), std::string::npos) << r.err;
  const CliRun words = lumen("similarity --table default man young --json");
  EXPECT_EQ(words.code, 0) << words.err;
  EXPECT_NE(words.out.find("\"score\""), std::string::npos) << words.out;
}

TEST_F(TableArgument, HelpStatesTheRule) {
  for (const char* c : {"neighbours", "similarity", "analogy", "doesnt-match", "onehot"}) {
    const CliRun r = lumen(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("TABLE is optional"), std::string::npos) << c << "\n" << r.out;
    EXPECT_NE(r.out.find("--table"), std::string::npos) << c << "\n" << r.out;
    EXPECT_NE(r.out.find("Example"), std::string::npos) << c << "\n" << r.out;
  }
}

}  // namespace test_table_argument
