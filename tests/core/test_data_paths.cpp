#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "lumen/core/data_paths.hpp"
#include "support/temp_dir.hpp"

namespace test_data_paths {

namespace fs = std::filesystem;
using lumen::DataPaths;
using lumen::find_data_paths;

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "x";
}

TEST(DataPaths, FoundInABuildTree) {
  lumen::test::TempDir t("data-paths");
  touch(t.p / "gpt2" / "encoder.json");
  fs::create_directories(t.p / "default");
  const DataPaths d = find_data_paths(t.p.string());
  EXPECT_EQ(d.default_table, (t.p / "default" / "brown.vec").string());
  EXPECT_EQ(d.gpt2_dir, (t.p / "gpt2").string());
}

TEST(DataPaths, FoundUnderAnInstalledPrefix) {
  lumen::test::TempDir t("data-paths");
  fs::create_directories(t.p / "bin");
  touch(t.p / "share" / "lumen" / "gpt2" / "encoder.json");
  touch(t.p / "share" / "lumen" / "default" / "brown.vec");
  const DataPaths d = find_data_paths((t.p / "bin").string());
  EXPECT_EQ(d.default_table, (t.p / "share" / "lumen" / "default" / "brown.vec").string());
  EXPECT_EQ(d.gpt2_dir, (t.p / "share" / "lumen" / "gpt2").string());
}

TEST(DataPaths, NothingThereNamesWhereTheTableWouldGoAndNoGpt2) {
  lumen::test::TempDir t("data-paths");
  fs::create_directories(t.p / "gpt2");  // no encoder.json in it: not GPT-2's files
  const DataPaths d = find_data_paths(t.p.string());
  EXPECT_EQ(d.default_table, (t.p / "default" / "brown.vec").string());
  EXPECT_EQ(d.gpt2_dir, "");
  EXPECT_EQ(find_data_paths("").default_table, "");
}

TEST(DataPaths, SetIsWhatTheLibrarySees) {
  const DataPaths before = lumen::data_paths();
  lumen::set_data_paths({.default_table = "/x/t.vec", .gpt2_dir = "/x/g"});
  EXPECT_EQ(lumen::data_paths().default_table, "/x/t.vec");
  EXPECT_EQ(lumen::data_paths().gpt2_dir, "/x/g");
  lumen::set_data_paths(before);
}

}  // namespace test_data_paths
