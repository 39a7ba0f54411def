// `lumen gpt` and `lumen params CKPT_DIR` through the binary, on the tiny fixtures of tests/data/model.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

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
  // Usage: no text; --temperature without --generate.
  EXPECT_EQ(run_cli("gpt " + fixture("gpt2")).code, 2);
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

}  // namespace test_gpt
