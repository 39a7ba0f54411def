// `lumen params` and `lumen init-stats`: exact preset totals through the binary, JSON keys, exit codes.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace test_params {

using Result = lumen_cli::CliRun;
Result lumen(const std::string& args) { return lumen_cli::run_cli(args); }

TEST(CliParams, PresetTotalsInJson) {
  const std::pair<const char*, std::uint64_t> want[] = {{"gpt2", 124439808ull},        {"gpt2-medium", 354823168ull},
                                                        {"gpt2-large", 774030080ull},  {"gpt2-xl", 1557611200ull},
                                                        {"llama-3-8b", 8030261248ull}, {"llama-3.2-1b", 1235814400ull}};
  for (auto [name, total] : want) {
    Result r = lumen(std::string("params ") + name + " --json");
    ASSERT_EQ(r.code, 0) << name;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["total"].get<std::uint64_t>(), total) << name;
    EXPECT_TRUE(j.contains("embedding"));
    EXPECT_TRUE(j.contains("output_head"));
    EXPECT_TRUE(j.contains("embedding_share"));
  }
  auto j = nlohmann::json::parse(lumen("params llama-3-8b --json").out);
  EXPECT_EQ(j["output_head"].get<std::uint64_t>(), 128256ull * 4096);
  EXPECT_EQ(j["embedding"].get<std::uint64_t>(), 128256ull * 4096);
  EXPECT_EQ(j["memory_bytes"]["bf16"].get<std::uint64_t>(), 2ull * 8030261248ull);
}

TEST(CliParams, TableShowsEveryPart) {
  Result r = lumen("params gpt2");
  ASSERT_EQ(r.code, 0);
  for (const char* s : {"token embedding", "38,597,376", "positional", "786,432", "attention", "MLP", "norms",
                        "final norm", "output head", "124,439,808", "31.02%", "fp32", "bf16", "fp16", "int8"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(CliParams, OptionsOverrideThePreset) {
  // GPT-2 small untied: one more V x d matrix.
  auto j = nlohmann::json::parse(lumen("params gpt2 --untied --json").out);
  EXPECT_EQ(j["total"].get<std::uint64_t>(), 124439808ull + 50257ull * 768);
  // A LLaMA-style shape from options alone.
  Result r = lumen(
      "params --vocab 128256 --d-model 4096 --layers 32 --heads 32 --kv-heads 8 --ffn 14336 "
      "--positional rope --norm rmsnorm --mlp swiglu --no-bias --untied --json");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(nlohmann::json::parse(r.out)["total"].get<std::uint64_t>(), 8030261248ull);
  // A wider d follows with heads of 64 and a 4d FFN: GPT-2 medium's shape.
  auto m = nlohmann::json::parse(lumen("params gpt2 --d-model 1024 --layers 24 --json").out);
  EXPECT_EQ(m["total"].get<std::uint64_t>(), 354823168ull);
}

TEST(CliParams, SweepShareFalls) {
  Result r = lumen("params gpt2 --sweep --json");
  ASSERT_EQ(r.code, 0);
  auto rows = nlohmann::json::parse(r.out)["sweep"];
  ASSERT_GE(rows.size(), 6u);
  for (std::size_t i = 1; i < rows.size(); ++i)
    EXPECT_LT(rows[i]["embedding_share"].get<double>(), rows[i - 1]["embedding_share"].get<double>());
  EXPECT_NE(lumen("params gpt2 --sweep").out.find("N x block"), std::string::npos);
}

TEST(CliParams, BadUsageExitsTwo) {
  EXPECT_EQ(lumen("params gpt5").code, 2);
  EXPECT_EQ(lumen("params --heads 7").code, 2);
  EXPECT_EQ(lumen("params --norm batchnorm").code, 2);
  EXPECT_EQ(lumen("params --layers -3").code, 2);
}

TEST(CliInitStats, MeasuredNearPredicted) {
  Result r = lumen("init-stats --dim 256 --std 0.02 --samples 20000 --json");
  ASSERT_EQ(r.code, 0);
  auto j = nlohmann::json::parse(r.out);
  const double pred = j["predicted_dot_std"].get<double>();
  EXPECT_NEAR(pred, 0.0004 * 16, 1e-12);
  EXPECT_NEAR(j["measured_dot_std"].get<double>() / pred, 1.0, 0.05);
  EXPECT_NEAR(j["measured_scaled_dot_std"].get<double>() / j["predicted_scaled_dot_std"].get<double>(), 1.0, 0.05);
  Result t = lumen("init-stats --dim 64 --samples 2000");
  EXPECT_EQ(t.code, 0);
  EXPECT_NE(t.out.find("predicted"), std::string::npos);
  EXPECT_NE(t.out.find("sqrt(d)"), std::string::npos);
  EXPECT_EQ(lumen("init-stats --std -1").code, 2);
  EXPECT_EQ(lumen("init-stats --dim 0").code, 2);
  EXPECT_EQ(lumen("init-stats --samples -5").code, 2);
}

TEST(CliSizes, AbsurdSizesAreUsageErrorsNamingTheLimit) {
  // Sizes that cannot be allocated, or counts that would wrap around 64 bits: exit 2 with the limit, never an
  // out-of-memory exit 3 or a silently wrong total.
  const std::pair<std::string, std::string> cases[] = {
      {"init-stats --dim 100000000000", "at most 65536"},
      {"init-stats --rows 100000000000", "at most 1000000"},
      {"init-stats --dim 65536 --rows 100000", "at most 268435456"},
      {"init-stats --samples 1000000000000", "at most 10000000000"},
      {"params --vocab 18446744073709551615", "2^62"},
      {"params --layers 10000000000000", "2^62"},
      {"params --d-model 4611686018427387904 --heads 1", "2^62"},
      {"params --sweep --vocab 10000000000000000", "2^62"},
  };
  for (const auto& [args, limit] : cases) {
    Result r = lumen_cli::run_cli(args, {.timeout_s = 60});  // before the limits, --samples 10^12 ran for hours
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(limit), std::string::npos) << args << "\n" << r.err;
  }
  // Bounds of numeric options are said plainly, not as CLI11's 309-digit largest double.
  for (const std::string args : {"init-stats --samples 1", "init-stats --dim 0", "params --layers -3"}) {
    Result r = lumen_cli::run_cli(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find("must be at least"), std::string::npos) << args << "\n" << r.err;
    EXPECT_LT(r.err.size(), 200u) << args << "\n" << r.err;
  }
}

}  // namespace test_params
