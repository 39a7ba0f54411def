// `lumen project --method umap`: JSON with the UMAP fields and honesty numbers, and --neighbors larger than the table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace test_project_umap {
using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args); }
std::string show(const CliRun& r) { return r.cmdline + "\n--- stdout\n" + r.out + "\n--- stderr\n" + r.err; }

TEST(CliProjectUmap, JsonHasTheCurveAndTheHonestyNumbers) {
  const CliRun r = lumen("project toy --method umap --neighbors 5 --seeds 2 --json");
  ASSERT_EQ(r.code, 0) << show(r);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["method"], "umap");
  EXPECT_EQ(doc["neighbors"], 5);
  EXPECT_NEAR(doc["a"].get<double>(), 1.577, 0.01);
  EXPECT_EQ(doc["knn_preservation"].size(), 2u);
  EXPECT_TRUE(doc["agreement"].is_number());
  EXPECT_EQ(doc["points"].size(), 30u);
}

TEST(CliProjectUmap, NeighborsLargerThanTheTableIsAUsageError) {
  const CliRun r = lumen("project toy --method umap --neighbors 100");
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_NE(r.err.find("the map has 30 points"), std::string::npos) << show(r);
  EXPECT_EQ(lumen("project toy --method umap --min-dist 2").code, 2);
  EXPECT_EQ(lumen("project toy --method nope").code, 2);
}

}  // namespace test_project_umap
