// `lumen tour` and `lumen` alone: the tour runs, shows the three steps, and its JSON checks out.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace test_tour {

using Result = lumen_cli::CliRun;
Result lumen(const std::string& args) { return lumen_cli::run_cli(args); }

TEST(CliTour, NoCommandRunsTheTour) {
  Result r = lumen("");
  ASSERT_EQ(r.code, 0);
  for (const char* s : {"ids -> one-hot -> row of E -> dense vector", "\"the cat sat\" -> ids [1, 2, 3]",
                        "equal, bit for bit", "124,439,808", "std^2*sqrt(d)", "lumen drift CKPT --token bank",
                        "lumen serve --model CKPT, then the Drift view"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  EXPECT_EQ(lumen("tour").out, r.out);  // the same tour, deterministic
}

TEST(CliTour, JsonHasTheThreeParts) {
  Result r = lumen("tour --json --text \"the dog sat on a mat\" --dim 6");
  ASSERT_EQ(r.code, 0);
  auto j = nlohmann::json::parse(r.out);
  auto ex = j["example"];
  EXPECT_EQ(ex["ids"], nlohmann::json({1, 7, 3, 4, 5, 6}));
  EXPECT_TRUE(ex["forward_equals_onehot"].get<bool>());
  // dense row t is row ids[t] of E, and the one-hot row has its 1 there.
  for (std::size_t t = 0; t < ex["ids"].size(); ++t) {
    const auto id = ex["ids"][t].get<std::size_t>();
    EXPECT_EQ(ex["dense"][t], ex["E"][id]);
    EXPECT_EQ(ex["onehot"][t][id].get<double>(), 1.0);
    EXPECT_EQ(ex["E"][id].size(), 6u);
  }
  EXPECT_EQ(j["params"]["total"].get<std::uint64_t>(), 124439808ull);
  const double pred = j["init_stats"]["predicted_dot_std"].get<double>();
  EXPECT_NEAR(j["init_stats"]["measured_dot_std"].get<double>() / pred, 1.0, 0.05);
  // The pointer to Figure 3: the command and the explorer's Drift view.
  EXPECT_NE(j["next"]["drift"]["command"].get<std::string>().find("lumen drift"), std::string::npos);
  EXPECT_NE(j["next"]["drift"]["explorer"].get<std::string>().find("Drift view"), std::string::npos);
}

TEST(CliTour, UnknownWordIsBadInput) { EXPECT_EQ(lumen("tour --text \"the zebra\"").code, 1); }

}  // namespace test_tour
