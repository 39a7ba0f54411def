// `lumen probe`: a built-in label set out of the box, a label file, --json, and the bad inputs (a label file
// without tabs, one class, unknown words, a name that is neither a file nor a set).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace test_probe {

using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args); }
std::string fixture(const std::string& name) {
  return lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/eval/probe/" + name);
}
std::string show(const CliRun& r) { return r.cmdline + "\n--- stdout\n" + r.out + "\n--- stderr\n" + r.err; }

std::string write_tmp(const std::string& name, const std::string& bytes) {
  const auto p =
      std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name);  // one name per test process
  std::ofstream(p, std::ios::binary) << bytes;
  return lumen_cli::detail::quote(p.string());
}

TEST(CliProbe, LabelFileTextAndJson) {
  const CliRun t = lumen("probe " + fixture("table.vec") + " " + fixture("labels.tsv"));
  ASSERT_EQ(t.code, 0) << show(t);
  EXPECT_NE(t.out.find("300 words"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("selectivity"), std::string::npos) << show(t);
  const CliRun j = lumen("probe " + fixture("table.vec") + " " + fixture("labels.tsv") + " --json --folds 4 -C 0.5");
  ASSERT_EQ(j.code, 0) << show(j);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["n"], 300);
  EXPECT_EQ(doc["folds"], 4);
  EXPECT_EQ(doc["fold_accuracy"].size(), 4u);
  EXPECT_GT(doc["accuracy"].get<double>(), doc["control_accuracy"].get<double>());
  EXPECT_EQ(doc["words"].size(), 300u);
  EXPECT_TRUE(doc["words"][0].contains("fold"));
}

TEST(CliProbe, BuiltInSetOnTheDefaultTable) {
  const CliRun r = lumen("probe toy gender --json --folds 2");
  // The toy table holds king, queen, man, woman...: enough for two folds, or a clear error naming the counts.
  if (r.code == 0) {
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["classes"], (nlohmann::json{"male", "female"}));
  } else {
    EXPECT_EQ(r.code, 1) << show(r);
    EXPECT_NE(r.err.find("words are in the table"), std::string::npos) << show(r);
  }
  const CliRun help = lumen("probe --help");
  EXPECT_NE(help.out.find("gender"), std::string::npos) << show(help);
  EXPECT_NE(help.out.find("capitals"), std::string::npos) << show(help);
}

TEST(CliProbe, BadLabelsExitOneOrTwo) {
  CliRun r = lumen("probe " + fixture("table.vec") + " " + write_tmp("lumen-probe-notab.tsv", "w001 noun\n"));
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find(":1: expected word<TAB>label"), std::string::npos) << show(r);
  r = lumen("probe " + fixture("table.vec") + " " + write_tmp("lumen-probe-one.tsv", "w001\tnoun\nw002\tnoun\n"));
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("at least two classes"), std::string::npos) << show(r);
  r = lumen("probe " + fixture("table.vec") + " " + write_tmp("lumen-probe-unknown.tsv", "cat\tnoun\ndog\tverb\n"));
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("0 of its 2 words are in the table"), std::string::npos) << show(r);
  r = lumen("probe " + fixture("table.vec") + " colours");
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_NE(r.err.find("unknown label set 'colours'"), std::string::npos) << show(r);
  r = lumen("probe " + fixture("table.vec") + " ./missing.tsv");
  EXPECT_EQ(r.code, 1) << show(r);
  r = lumen("probe " + fixture("table.vec") + " gender --analogies /no/such/questions-words.txt");
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("--analogies"), std::string::npos) << show(r);
  r = lumen("probe " + fixture("table.vec") + " " + fixture("labels.tsv") + " --folds 1");
  EXPECT_EQ(r.code, 2) << show(r);
  r = lumen("probe " + fixture("table.vec") + " " + fixture("labels.tsv") + " -C 0");
  EXPECT_EQ(r.code, 2) << show(r);
}

}  // namespace test_probe

namespace test_probe {

// --layers: the probe on each layer of a checkpoint, as a table, JSON and a picture; its options need --layers.
TEST(CliProbe, LayersOfAModel) {
  const std::string gpt = lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2");
  std::string tsv;
  const char* words[] = {"river", "bank", "money", "loan", "water", "stone", "tree", "house", "road", "rain"};
  for (std::size_t i = 0; i < 10; ++i) tsv += std::string(words[i]) + (i % 2 ? "\todd\n" : "\teven\n");
  const std::string labels = write_tmp("layer-labels.tsv", tsv);
  const CliRun t = lumen("probe " + gpt + " " + labels + " --layers --folds 2");
  ASSERT_EQ(t.code, 0) << show(t);
  EXPECT_NE(t.out.find("layer by layer: 10 words read alone"), std::string::npos) << show(t);
  EXPECT_NE(t.out.find("<- best"), std::string::npos) << show(t);
  const auto png = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-layers.png");
  const CliRun j = lumen("probe " + gpt + " " + labels + " --layers --folds 2 --json --context \"the {} is\" -o " +
                         lumen_cli::detail::quote(png.string()));
  ASSERT_EQ(j.code, 0) << show(j);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["layers"].size(), 3u);  // the fixture's 2 blocks and layer 0
  EXPECT_EQ(doc["context"], "the {} is");
  EXPECT_FALSE(doc["alone"].get<bool>());
  EXPECT_EQ(doc["n"], 10);
  EXPECT_TRUE(std::filesystem::exists(png));
  std::filesystem::remove(png);
  const CliRun bad = lumen("probe " + fixture("table.vec") + " " + fixture("labels.tsv") + " --context \"{}\"");
  EXPECT_EQ(bad.code, 2) << show(bad);
  EXPECT_NE(bad.err.find("--context goes with --layers"), std::string::npos) << show(bad);
  const CliRun no_place = lumen("probe " + gpt + " " + labels + " --layers --context nothing");
  EXPECT_EQ(no_place.code, 1) << show(no_place);
  EXPECT_NE(no_place.err.find("must hold {} exactly once"), std::string::npos) << show(no_place);
}

}  // namespace test_probe
