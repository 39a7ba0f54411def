// `lumen compare`: two tables, an untied model's two heads, --json, and the bad inputs (no shared words,
// different d, k too large, a tied model with no head).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "cli_run.hpp"
#include "support/safetensors_file.hpp"

namespace test_compare {

using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args); }
std::string fixture(const std::string& name) {
  return lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/compare/" + name);
}
std::string show(const CliRun& r) { return r.cmdline + "\n--- stdout\n" + r.out + "\n--- stderr\n" + r.err; }

std::filesystem::path scratch() {
  const auto dir = std::filesystem::temp_directory_path() / ("lumen-cli-compare-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(CliCompare, TextAndJsonOverTheSharedWords) {
  const CliRun t = lumen("compare " + fixture("a.vec") + " " + fixture("b.vec") + " -k 5 --moved 2");
  ASSERT_EQ(t.code, 0) << show(t);
  EXPECT_NE(t.out.find("shared words: 45"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("neighbour overlap@5: mean 0.6444"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("linear CKA: 0.9099"), std::string::npos) << show(t);
  const CliRun j = lumen("compare " + fixture("a.vec") + " " + fixture("b.vec") + " -k 5 --json");
  ASSERT_EQ(j.code, 0) << show(j);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["shared"], 45);
  EXPECT_NEAR(doc["procrustes"]["residual"].get<double>(), 6.893687, 1e-5);
  EXPECT_EQ(doc["moved"].size(), 10u);
  EXPECT_EQ(doc["moved"][0]["a"].size(), 5u);
}

TEST(CliCompare, DifferentDSaysProcrustesNeedsEqualD) {
  const CliRun r = lumen("compare " + fixture("a.vec") + " " + fixture("c.vec") + " -k 5 --json");
  ASSERT_EQ(r.code, 0) << show(r);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["procrustes"].is_null());
  EXPECT_NE(doc["procrustes_skipped"].get<std::string>().find("equal d"), std::string::npos);
  const CliRun t = lumen("compare " + fixture("a.vec") + " " + fixture("c.vec") + " -k 5");
  EXPECT_NE(t.out.find("Procrustes: skipped"), std::string::npos) << show(t);
}

TEST(CliCompare, BadInputsExitOneOrTwoWithAReason) {
  // No shared words: the toy table's words are not w00, w01, ...
  CliRun r = lumen("compare toy " + fixture("a.vec"));
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("share no words"), std::string::npos) << show(r);
  r = lumen("compare " + fixture("a.vec") + " " + fixture("b.vec") + " -k 45");
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("45 shared words"), std::string::npos) << show(r);
  r = lumen("compare " + fixture("a.vec") + " " + fixture("b.vec") + " -k 0");
  EXPECT_EQ(r.code, 2) << show(r);
  r = lumen("compare " + fixture("a.vec"));
  EXPECT_EQ(r.code, 2) << show(r);
  r = lumen("compare " + fixture("a.vec") + " " + fixture("b.vec") + " --heads");
  EXPECT_EQ(r.code, 2) << show(r);
  // A table with no head beside it (a tied model, or not a model at all).
  r = lumen("compare " + fixture("a.vec") + " --heads");
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("a.vec.out is missing"), std::string::npos) << show(r);
}

TEST(CliCompare, HeadsOfAnUntiedModelRowByRow) {
  const auto dir = scratch();
  {
    std::ofstream c(dir / "corpus.txt");
    const char* w[] = {"the", "cat", "dog", "a", "an", "sat", "on", "mat", "ran", "apple", "egg", "ate"};
    for (int s = 0; s < 300; ++s) {
      for (int i = 0; i < 8; ++i) c << w[(s * 7 + i * 5 + s / 3) % 12] << ' ';
      c << '\n';
    }
  }
  const std::string lm = lumen_cli::detail::quote((dir / "lm.vec").string());
  const CliRun t = lumen("train lm " + lumen_cli::detail::quote((dir / "corpus.txt").string()) + " --no-tie -o " + lm +
                         " --dim 8 --hidden 8 --min-count 1 --json");
  ASSERT_EQ(t.code, 0) << show(t);
  const CliRun r = lumen("compare " + lm + " --heads -k 3 --json");
  ASSERT_EQ(r.code, 0) << show(r);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["shared"], doc["a"]["V"]);  // row by row: the same vocabulary
  EXPECT_NE(doc["b"]["source"].get<std::string>().find("lm.vec.out"), std::string::npos);
  EXPECT_TRUE(doc["procrustes"].is_object());
  std::filesystem::remove_all(dir);
}

using lumen::test::write_safetensors;

std::vector<float> values(std::size_t rows, std::size_t cols, unsigned seed) {
  std::vector<float> v(rows * cols);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(((i + 1) * (seed * 7 + 3)) % 23) / 11.0f - 1.0f + 0.01f * static_cast<float>(i % 5);
  return v;
}

TEST(CliCompare, HeadsOfASafetensorsCheckpointAreItsEmbeddingAndLmHead) {
  const auto dir = scratch() / "st";
  std::filesystem::create_directories(dir);
  const std::size_t V = 40, d = 6;
  const auto E = values(V, d, 1), W = values(V, d, 2);
  write_safetensors(dir / "untied.safetensors", {{"model.embed_tokens.weight", V, d, E}, {"lm_head.weight", V, d, W}});
  write_safetensors(dir / "head-only.safetensors", {{"wte.weight", V, d, W}});
  write_safetensors(dir / "tied.safetensors", {{"model.embed_tokens.weight", V, d, E}});
  const auto q = [&](const char* f) { return lumen_cli::detail::quote((dir / f).string()); };
  const CliRun r = lumen("compare " + q("untied.safetensors") + " --heads -k 4 --json");
  ASSERT_EQ(r.code, 0) << show(r);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["shared"], V);  // rows pair by token id
  EXPECT_NE(doc["b"]["source"].get<std::string>().find("lm_head.weight"), std::string::npos);
  // The same numbers as the two tensors in two files: row by row, the head really is lm_head.
  const CliRun two = lumen("compare " + q("untied.safetensors") + " " + q("head-only.safetensors") + " -k 4 --json");
  ASSERT_EQ(two.code, 0) << show(two);
  const auto ref = nlohmann::json::parse(two.out);
  EXPECT_EQ(doc["overlap"], ref["overlap"]);
  EXPECT_DOUBLE_EQ(doc["cka"].get<double>(), ref["cka"].get<double>());
  EXPECT_DOUBLE_EQ(doc["procrustes"]["residual"].get<double>(), ref["procrustes"]["residual"].get<double>());
  EXPECT_LT(doc["cka"].get<double>(), 0.999);  // E and W differ: not the same tensor read twice
  // A tied checkpoint has no head: a clear error, exit 1.
  const CliRun tied = lumen("compare " + q("tied.safetensors") + " --heads");
  EXPECT_EQ(tied.code, 1) << show(tied);
  EXPECT_NE(tied.err.find("no output head tensor"), std::string::npos) << show(tied);
  EXPECT_NE(tied.err.find("tied"), std::string::npos) << show(tied);
  // The explorer loads the head the same way, and refuses the same checkpoint before it serves anything.
  const CliRun serve_tied = lumen("serve " + q("tied.safetensors") + " --heads --port 0");
  EXPECT_EQ(serve_tied.code, 1) << show(serve_tied);
  EXPECT_NE(serve_tied.err.find("no output head tensor"), std::string::npos) << show(serve_tied);
  EXPECT_EQ(lumen("serve " + q("untied.safetensors") + " --head x.vec --port 0").code, 2);
  std::filesystem::remove_all(dir);
}

// Rows holding a NaN or an infinity are left out of the comparison and named (they made the Procrustes SVD
// fail: exit 3), in text and JSON, as two tables and as one untied checkpoint's --heads.
TEST(CliCompare, NonFiniteRowsAreLeftOutAndNamedNotExitThree) {
  const auto dir = scratch() / "nonfinite";
  std::filesystem::create_directories(dir);
  std::ifstream in(std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/compare/b.vec");
  std::ofstream out(dir / "b.vec");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("w15 ", 0) == 0) line = "w15 nan 0 0 0 0 0 0 0";
    if (line.rfind("w41 ", 0) == 0) line = "w41 0 inf 0 0 0 0 0 0";
    out << line << "\n";
  }
  out.close();
  const std::string b = lumen_cli::detail::quote((dir / "b.vec").string());
  const CliRun t = lumen("compare " + fixture("a.vec") + " " + b + " -k 5");
  ASSERT_EQ(t.code, 0) << show(t);
  EXPECT_NE(t.out.find("shared words: 45\n"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("note: 2 shared words left out"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("w15"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("w41"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("Procrustes: residual"), std::string::npos) << show(t);
  const CliRun j = lumen("compare " + fixture("a.vec") + " " + b + " -k 5 --json");
  ASSERT_EQ(j.code, 0) << show(j);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["shared"], 45);
  EXPECT_EQ(doc["n"], 43);
  EXPECT_EQ(doc["non_finite"]["count"], 2);
  EXPECT_EQ(doc["non_finite"]["words"].size(), 2u);
  EXPECT_TRUE(doc["procrustes"].is_object());
  // Too few finite rows for k: exit 1, saying why.
  const CliRun few = lumen("compare " + fixture("a.vec") + " " + b + " -k 43");
  EXPECT_EQ(few.code, 1) << show(few);
  EXPECT_NE(few.err.find("NaN or an infinity"), std::string::npos) << show(few);

  const std::size_t V = 40, d = 6;
  auto E = values(V, d, 1);
  E[3 * d + 2] = std::numeric_limits<float>::quiet_NaN();
  write_safetensors(dir / "untied.safetensors",
                    {{"model.embed_tokens.weight", V, d, E}, {"lm_head.weight", V, d, values(V, d, 2)}});
  const CliRun heads =
      lumen("compare " + lumen_cli::detail::quote((dir / "untied.safetensors").string()) + " --heads -k 4 --json");
  ASSERT_EQ(heads.code, 0) << show(heads);
  EXPECT_EQ(nlohmann::json::parse(heads.out)["non_finite"]["count"], 1);
  std::filesystem::remove_all(dir);
}

}  // namespace test_compare
