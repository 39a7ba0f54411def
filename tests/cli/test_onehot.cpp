// `lumen onehot TABLE TOKEN`: the three views agree, on a real table file.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace test_onehot {

using Result = lumen_cli::CliRun;
// Runs lumen with `args`; `input` (if any) arrives on stdin.
Result lumen(const std::string& args, const std::string& input = "") {
  return lumen_cli::run_cli(args, {.input = input});
}

const std::string kGlove = std::string(LUMEN_DATA_DIR) + "/formats/test_glove.txt";  // 76 x 50, "the" first

TEST(CliOnehot, ThreeViewsOfOneToken) {
  Result r = lumen("onehot " + kGlove + " the --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["V"].get<int>(), 76);
  EXPECT_EQ(j["d"].get<int>(), 50);
  auto t = j["tokens"][0];
  EXPECT_EQ(t["id"].get<int>(), 0);
  EXPECT_EQ(t["onehot"]["length"].get<int>(), 76);
  EXPECT_EQ(t["onehot"]["one_at"].get<int>(), 0);
  EXPECT_TRUE(t["equal"].get<bool>());
  EXPECT_EQ(t["row"], t["dense"]);
  EXPECT_NEAR(t["row"][0].get<double>(), 0.418, 1e-6);  // the file's first value
}

TEST(CliOnehot, TextAndStdinAndErrors) {
  Result r = lumen("onehot " + kGlove + " the");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("length V = 76, its 1 at position 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("yes, exactly"), std::string::npos);
  Result s = lumen("onehot " + kGlove + " --json < /dev/null");
  EXPECT_EQ(s.code, 2);  // no tokens
  Result batch = lumen("onehot " + kGlove + " --json", "the\nof\n");
  ASSERT_EQ(batch.code, 0);
  auto j = nlohmann::json::parse(batch.out);
  ASSERT_EQ(j["tokens"].size(), 2u);
  EXPECT_EQ(j["tokens"][1]["token"], "of");
  EXPECT_TRUE(j["tokens"][1]["equal"].get<bool>());
  EXPECT_EQ(lumen("onehot " + kGlove + " zzzzunknownzzzz").code, 1);
  EXPECT_EQ(lumen("onehot /nonexistent/table.txt the").code, 1);
}

TEST(CliOnehot, BuiltInToyTable) {
  Result r = lumen("onehot toy cat --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  auto t = j["tokens"][0];
  EXPECT_EQ(t["onehot"]["length"], j["V"]);
  EXPECT_EQ(t["onehot"]["one_at"], t["id"]);
  EXPECT_TRUE(t["equal"].get<bool>());
  EXPECT_EQ(t["row"], t["dense"]);
  EXPECT_EQ(t["row"].size(), j["d"].get<std::size_t>());
}

}  // namespace test_onehot
