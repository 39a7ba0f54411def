// `lumen gpt` and `lumen params CKPT_DIR` through the binary, on the tiny fixtures of tests/data/model.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "support/scaled_checkpoint.hpp"
#include "support/temp_dir.hpp"

namespace test_gpt {

using lumen_cli::run_cli;
std::string fixture(const std::string& name) {
  return lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/" + name);
}

TEST(CliGpt, NextTokenJsonShape) {
  const auto r = run_cli("gpt " + fixture("gpt2") + " 'the river bank' --top 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // no progress bar or header in JSON
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_TRUE(j["ids"].is_array());
  ASSERT_EQ(j["next"].size(), 3u);
  double last = 1;
  for (const auto& n : j["next"]) {
    EXPECT_EQ(n.size(), 4u);
    EXPECT_TRUE(n["token"].is_string());
    EXPECT_TRUE(n["id"].is_number_integer());
    EXPECT_TRUE(n["logit"].is_number());
    EXPECT_LE(n["prob"].get<double>(), last);
    last = n["prob"].get<double>();
  }
}

// The README: every command reads its queries from stdin when none are given. `echo "The cat" | lumen gpt DIR`
// exited 2; the text piped in is the prompt, its one trailing newline dropped.
TEST(CliGpt, ReadsThePromptFromStdin) {
  const auto piped = run_cli("gpt " + fixture("gpt2") + " --top 3 --json", {.input = "the river bank\n"});
  ASSERT_EQ(piped.code, 0) << piped.err;
  const auto given = run_cli("gpt " + fixture("gpt2") + " 'the river bank' --top 3 --json");
  ASSERT_EQ(given.code, 0) << given.err;
  EXPECT_EQ(piped.out, given.out);
}

TEST(CliGpt, TableShowsTheHead) {
  const auto r = run_cli("gpt " + fixture("gpt2-untied-bf16") + " 'the bank'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("head untied (lm_head.weight)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BF16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("next token:"), std::string::npos) << r.out;
  const auto t = run_cli("gpt " + fixture("llama-tied-f16") + " 'the bank'");
  EXPECT_NE(t.out.find("head tied (config.json tie_word_embeddings)"), std::string::npos) << t.out;
}

TEST(CliGpt, GenerateIsDeterministicForASeed) {
  const std::string cmd = "gpt " + fixture("llama-sharded") + " 'the bank' --generate 12 --top-k 40 --json --seed ";
  const auto a = run_cli(cmd + "5"), b = run_cli(cmd + "5"), c = run_cli(cmd + "6");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  const auto j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["generated"].size(), 12u);
  EXPECT_TRUE(j["text"].is_string());
}

TEST(CliGpt, PerplexitySlidesAWindow) {
  const std::string file = ::testing::TempDir() + "lumen_gpt_ppl_" + std::to_string(::getpid()) + ".txt";
  {
    std::ofstream f(file);
    for (int i = 0; i < 20; ++i) f << "the river bank was muddy. the bank approved the loan.\n";
  }
  const auto r = run_cli("gpt " + fixture("gpt2") + " --perplexity " + lumen_cli::detail::quote(file) + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["windows"].get<int>(), 1);
  EXPECT_GT(j["perplexity"].get<double>(), 1.0);
  EXPECT_EQ(j["context"].get<int>(), 32);
  std::filesystem::remove(file);
}

TEST(CliGpt, BadInputs) {
  // Text longer than the context: exit 1, says so.
  std::string text;
  for (int i = 0; i < 40; ++i) text += "the bank ";
  auto r = run_cli("gpt " + fixture("gpt2") + " '" + text + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("the model's context is 32"), std::string::npos) << r.err;
  // Not a checkpoint.
  r = run_cli("gpt /nonexistent/ckpt 'x'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("/nonexistent/ckpt"), std::string::npos) << r.err;
  // Usage: no text (stdin empty too); --temperature without --generate.
  r = run_cli("gpt " + fixture("gpt2"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no text given (on the command line or stdin)"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("gpt " + fixture("gpt2") + " x --temperature 0.5").code, 2);
  EXPECT_EQ(run_cli("gpt " + fixture("gpt2") + " x --generate 0").code, 2);
  // --help has an example.
  r = run_cli("gpt --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Example"), std::string::npos);
}

TEST(CliGpt, ParamsReadsTheCheckpointConfig) {
  const auto r = run_cli("params " + fixture("llama-sharded") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["total"].get<int>(), 37792);  // = the loader's count (test_model CalculatorAgreesWithLoader)
  EXPECT_EQ(j["shape"]["tied"].get<bool>(), false);
  EXPECT_EQ(j["shape"]["kv_heads"].get<int>(), 2);
  const auto bad = run_cli("params " + fixture("gpt2") + "/expected.json");
  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_NE(bad.err.find("model_type"), std::string::npos) << bad.err;
}

TEST(CliDrift, JsonAndPicture) {
  const std::string png = ::testing::TempDir() + "lumen_drift_" + std::to_string(::getpid()) + ".png";
  const auto r = run_cli("drift " + fixture("gpt2") + " --token bank 'the river bank was muddy' " +
                         "'the bank approved the loan' --json -o " + lumen_cli::detail::quote(png));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["layers"].size(), 3u);
  EXPECT_EQ(j["layers"][0]["layer"], 0);
  EXPECT_TRUE(j["layers"][0]["cosine"].is_number());
  ASSERT_EQ(j["layers"][0]["contexts"].size(), 2u);
  EXPECT_EQ(j["layers"][2]["contexts"][1]["nearest"].size(), 5u);
  EXPECT_EQ(j["layers"][2]["contexts"][1]["lens"].size(), 5u);
  // The PCA points (model::drift_json, the schema /api/drift shares): per context, per layer, [x, y].
  ASSERT_EQ(j["pca_xy"].size(), 2u);
  ASSERT_EQ(j["pca_xy"][1].size(), 3u);
  EXPECT_EQ(j["pca_xy"][1][2].size(), 2u);
  EXPECT_TRUE(std::filesystem::file_size(png) > 1000);
  std::filesystem::remove(png);
  const auto t = run_cli("drift " + fixture("gpt2") + " --token bank 'the river bank was muddy' 'the bank approved'");
  EXPECT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("lookup knows no context"), std::string::npos) << t.out;
  // Not in a context: exit 1; one context: usage; a bad picture name: usage.
  EXPECT_EQ(run_cli("drift " + fixture("gpt2") + " --token money 'the bank' 'a bank'").code, 1);
  EXPECT_EQ(run_cli("drift " + fixture("gpt2") + " --token bank 'the bank'").code, 2);
  EXPECT_EQ(run_cli("drift " + fixture("gpt2") + " --token bank 'the bank' 'a bank' -o x.gif").code, 2);
}

// `--generate` streams: tokens reach a pipe while the model still runs, and Ctrl-C prints what was made and
// exits 130 (it printed nothing until the end, and lost everything on SIGINT). A count past the bound is usage.
TEST(CliGpt, GenerateStreamsAndCtrlCKeepsWhatWasMade) {
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const std::string dir = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/llama-sharded";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    if (std::freopen("/dev/null", "w", stderr) == nullptr) _exit(126);
    execl(LUMEN_BINARY_DIR "/lumen", "lumen", "gpt", dir.c_str(), "the bank", "--generate", "1000000", "--threads", "1",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string got;
  char buf[4096];
  // The header line, the prompt, then tokens: wait for 200 bytes past the prompt while the run goes on.
  while (got.find("the bank") == std::string::npos || got.size() < got.find("the bank") + 200) {
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  kill(pid, SIGINT);
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << got;
  EXPECT_EQ(WEXITSTATUS(status), 130) << got;
  ASSERT_NE(got.find("the bank"), std::string::npos) << got;
  EXPECT_GT(got.size(), got.find("the bank") + 200);
  EXPECT_EQ(got.back(), '\n');
  const auto r = run_cli("gpt " + fixture("gpt2") + " x --generate 99999999999");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("1000000"), std::string::npos) << r.err;
}

// Streamed text is the text the JSON reports, token for token. The model's invalid UTF-8 shows as \\xNN escapes
// on a terminal and as U+FFFD in JSON: both are dropped before comparing.
std::string without_bad_bytes(std::string s) {
  for (std::size_t at; (at = s.find("\\x")) != std::string::npos;) s.erase(at, 4);
  for (std::size_t at; (at = s.find("\xef\xbf\xbd")) != std::string::npos;) s.erase(at, 3);
  return s;
}

TEST(CliGpt, StreamedTextIsTheDecodedTokens) {
  const std::string cmd = "gpt " + fixture("llama-sharded") + " 'the bank' --generate 12 --top-k 40 --seed 3";
  const auto text = run_cli(cmd + " -q"), json = run_cli(cmd + " --json");
  ASSERT_EQ(text.code, 0) << text.err;
  ASSERT_EQ(json.code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  const std::string want = without_bad_bytes("the bank" + j["text"].get<std::string>() + "\n");
  const std::string got = without_bad_bytes(text.out);
  ASSERT_GE(got.size(), want.size()) << text.out;
  EXPECT_EQ(got.substr(got.size() - want.size()), want) << text.out;
}

// Finite weights that overflow (x 1e30) stop at the block that produced NaN or Inf, exit 1, naming it: `gpt`
// printed -nan with exit 0, --generate emitted <|endoftext|> forever, --perplexity printed -nan, drift exited 3.
TEST(CliGpt, WeightsThatOverflowNameTheBlockAndExitOne) {
  const lumen::test::TempDir dir("lumen-gpt-overflow");
  lumen::test::copy_scaled_checkpoint(std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2", dir / "m", 1e30f);
  const std::string m = lumen_cli::detail::quote(dir / "m");
  std::ofstream(dir / "text.txt") << "the river bank was muddy\n";
  for (const std::string& args : {"gpt " + m + " 'the river bank'", "gpt " + m + " 'the river bank' --json",
                                  "gpt " + m + " 'the bank' --generate 5",
                                  "gpt " + m + " --perplexity " + lumen_cli::detail::quote(dir / "text.txt"),
                                  "drift " + m + " --token bank 'the river bank' 'the bank approved'"}) {
    const auto r = run_cli(args, {.timeout_s = 60});
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out << "\n" << r.err;
    EXPECT_NE(r.err.find("produced non-finite values"), std::string::npos) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("block 1 "), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << args << "\n" << r.out;
  }
  // The same weights unscaled are fine: the check refuses overflow, not the model.
  EXPECT_EQ(run_cli("gpt " + fixture("gpt2") + " 'the river bank'").code, 0);
}

}  // namespace test_gpt
