// `lumen compare`: two tables, an untied model's two heads, --json, and the bad inputs (no shared words,
// different d, k too large, a tied model with no head).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace {

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

}  // namespace

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
