// lumen train gpt run as a user would: a tiny GPT-2 written as a Hugging Face directory that `lumen gpt` and the
// table commands open, --json, Ctrl-C + --resume equal to a straight run byte for byte, and usage errors.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "train_fixtures.hpp"

namespace fs = std::filesystem;

namespace test_train_gpt {

using Run = lumen_cli::CliRun;
Run run(const std::string& args) { return lumen_cli::run_cli(args); }

std::string slurp(const fs::path& p) { return lumen::test::read_file(p.string()); }
void write_corpus(const fs::path& p, int sentences) { lumen_cli::write_ten_word_corpus(p, sentences); }
struct TempDir : lumen_cli::TestDir {
  TempDir() : TestDir("lumen-cli-train-gpt") {}
};
using lumen_cli::interrupted_run;
const std::string& kTiny = lumen_cli::kTinyGpt;

TEST(CliTrainGpt, WritesAHuggingFaceDirectoryThatLumenOpens) {
  TempDir d;
  write_corpus(d.path / "c.txt", 300);
  const auto out = (d.path / "m").string();
  auto r = run("train gpt " + (d.path / "c.txt").string() + " -o " + out + kTiny + " --steps 6 --eval-every 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["V"], 50257);
  EXPECT_EQ(j["tied"], true);
  ASSERT_EQ(j["evals"].size(), 2u);
  EXPECT_GT(j["heldout_perplexity"].get<double>(), 1.0);
  for (const char* f : {"config.json", "model.safetensors", "tokenizer.json", "vocab.json", "merges.txt"})
    EXPECT_TRUE(fs::exists(fs::path(out) / f)) << f;
  EXPECT_FALSE(fs::exists(out + ".ckpt"));
  const auto cfg = nlohmann::json::parse(slurp(fs::path(out) / "config.json"));
  EXPECT_EQ(cfg["model_type"], "gpt2");
  EXPECT_EQ(cfg["tie_word_embeddings"], true);
  r = run("gpt " + out + " 'the cat' --json");
  ASSERT_EQ(r.code, 0) << r.err;
  // The table commands read its wte, each row labelled by its token.
  r = run("neighbours " + out + "/model.safetensors ' cat' --json");
  ASSERT_EQ(r.code, 0) << r.err;
  // Untied: lm_head.weight beside wte.
  const auto out2 = (d.path / "m2").string();
  r = run("train gpt " + (d.path / "c.txt").string() + " -o " + out2 + kTiny + " --steps 2 --untie");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("untied"), std::string::npos);
  EXPECT_NE(slurp(fs::path(out2) / "model.safetensors").find("lm_head.weight"), std::string::npos);
  r = run("gpt " + out2 + " 'the cat'");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(CliTrainGpt, CtrlCWritesCheckpointAndResumeMatchesStraightRun) {
  TempDir d;
  write_corpus(d.path / "c.txt", 300);
  const auto c = (d.path / "c.txt").string();
  const auto straight = (d.path / "straight").string(), resumed = (d.path / "resumed").string();
  ASSERT_EQ(run("train gpt " + c + " -o " + straight + kTiny + " --steps 30 --eval-every 10").code, 0);
  const auto ckpt = resumed + ".ckpt";
  const int code = interrupted_run(
      "train gpt " + c + " -o " + resumed + kTiny + " --steps 30 --eval-every 10 --checkpoint-every 3", ckpt);
  if (code == 0) GTEST_SKIP() << "training finished before the signal arrived";
  ASSERT_EQ(code, 130);
  ASSERT_TRUE(fs::exists(ckpt));
  EXPECT_FALSE(fs::exists(fs::path(resumed) / "model.safetensors"));
  const auto r = run("train gpt --resume " + ckpt + " " + c + " -o " + resumed);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(fs::path(resumed) / "model.safetensors"), slurp(fs::path(straight) / "model.safetensors"));
  EXPECT_FALSE(fs::exists(ckpt));
}

TEST(CliTrainGpt, WordsTokenizerAndItsResume) {
  TempDir d;
  write_corpus(d.path / "c.txt", 300);
  const auto c = (d.path / "c.txt").string(), out = (d.path / "w").string();
  auto r = run("train gpt " + c + " -o " + out + kTiny + " --tokenizer words --max-words 20 --steps 4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tokenizer"], "words");
  EXPECT_LT(j["V"].get<int>(), 300);
  EXPECT_GT(j["V"].get<int>(), 256);
  EXPECT_TRUE(fs::exists(fs::path(out) / "tokenizer.json"));
  EXPECT_FALSE(fs::exists(fs::path(out) / "encoder.json"));
  r = run("tokenize --tokenizer " + out + "/tokenizer.json 'the cat sat' --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["texts"][0]["ids"].size(), 3u);  // whole words: one token each
  r = run("gpt " + out + " 'the cat'");
  EXPECT_EQ(r.code, 0) << r.err;
  // A checkpoint remembers its tokenizer: --resume without --tokenizer rebuilds the same word stream.
  const auto straight = (d.path / "s").string(), resumed = (d.path / "r").string();
  ASSERT_EQ(run("train gpt " + c + " -o " + straight + kTiny + " --tokenizer words --max-words 20 --steps 30").code, 0);
  const int code = interrupted_run(
      "train gpt " + c + " -o " + resumed + kTiny + " --tokenizer words --max-words 20 --steps 30 --checkpoint-every 3",
      resumed + ".ckpt");
  if (code == 0) GTEST_SKIP() << "training finished before the signal arrived";
  ASSERT_EQ(code, 130);
  r = run("train gpt --resume " + resumed + ".ckpt " + c + " -o " + resumed);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(fs::path(resumed) / "model.safetensors"), slurp(fs::path(straight) / "model.safetensors"));
  EXPECT_EQ(slurp(fs::path(resumed) / "tokenizer.json"), slurp(fs::path(straight) / "tokenizer.json"));
}

TEST(CliTrainGpt, UsageAndInputErrors) {
  TempDir d;
  write_corpus(d.path / "c.txt", 300);
  const auto c = (d.path / "c.txt").string(), out = (d.path / "m").string();
  auto r = run("train gpt " + c + " -o " + out + kTiny + " --tokenizer bytes");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--tokenizer"), std::string::npos) << r.err;
  r = run("train gpt " + c + " -o " + out + " --d-model 8 --heads 3 --steps 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--heads"), std::string::npos) << r.err;
  r = run("train gpt " + c + " -o " + c + kTiny);  // the corpus file itself: refused, untouched
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(slurp(c).size() > 0, true);
  write_corpus(d.path / "short.txt", 1);
  r = run("train gpt " + (d.path / "short.txt").string() + " -o " + out + kTiny);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("too few"), std::string::npos) << r.err;
  r = run("train gpt --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("lumen train gpt corpus.txt -o"), std::string::npos);
}

}  // namespace test_train_gpt
