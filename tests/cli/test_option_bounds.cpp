// Counts given as negative numbers. CLI11 reads "-1" into an unsigned option as 2^64 - 1, so without a check
// `--restrict -1` silently meant "all rows" and `train --dim -1` was refused naming 18446744073709551615; every
// count option now says "must be at least 0 (got -1)" and exits 2.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <cstdio>
#include <string>

TEST(CliOptionBounds, NegativeCountsAreUsageErrorsNamingTheValue) {
  const std::string corpus = lumen_cli::detail::temp_file("the cat sat on the mat\n");
  const std::string options[] = {
      "neighbours toy king --restrict -1",
      "neighbours toy king --approx --ef -1",
      "analogy toy man king woman --restrict -1",
      "info toy --limit -1",
      "project toy --top -1 -o map.svg",
      "project toy --labels -1 -o map.svg",
      "train word2vec " + corpus + " -o w.vec --dim -1",
      "train word2vec " + corpus + " -o w.vec --min-count -1",
      "train lm " + corpus + " -o lm.vec --batch -1",
      "train lm " + corpus + " -o lm.vec --context -1",
  };
  const std::string dir = ::testing::TempDir();
  for (const auto& args : options) {
    const auto r = lumen_cli::run_cli(args, {.cwd = dir, .timeout_s = 60});
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("must be at least 0 (got -1)"), std::string::npos) << args << "\n" << r.err;
  }
  std::remove(corpus.c_str());
}

// The same through one check on every unsigned option of every command (main.cpp): the options no command
// guarded by hand (`compare --sample -1` compared every word and exited 0), and numbers past 2^64 - 1, which
// CLI11 saturated (`gpt --seed` with 23 digits acted as seed 18446744073709551615, `-k 18446744073709551616` was
// echoed as ...615).
TEST(CliOptionBounds, EveryUnsignedOptionRefusesNegativesAndNumbersPastTwoToThe64) {
  const std::string gpt = lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2");
  const std::string negative[] = {
      "compare toy toy --sample -1",
      "compare toy toy --top -1",
      "compare toy toy --moved -1",
      "compare toy toy --seed -1",
      "gpt " + gpt + " 'the' --seed -1 --generate 2",
  };
  for (const auto& args : negative) {
    const auto r = lumen_cli::run_cli(args, {.timeout_s = 60});
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("must be at least 0 (got -1)"), std::string::npos) << args << "\n" << r.err;
  }
  const std::string huge[] = {
      "gpt " + gpt + " 'the' --seed 12345678901234567890123 --generate 2",
      "neighbours toy king -k 18446744073709551616",
      "compare toy toy --seed 18446744073709551616",
  };
  for (const auto& args : huge) {
    const auto r = lumen_cli::run_cli(args, {.timeout_s = 60});
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("is past the largest value, 18446744073709551615"), std::string::npos) << args << "\n"
                                                                                                << r.err;
    EXPECT_EQ(r.err.find("18446744073709551615 "), std::string::npos) << "echoed as the saturated value: " << r.err;
  }
  // CLI11's PositiveNumber said "not in range 0.000000 to 1797693134862315..." (309 digits).
  const auto k = lumen_cli::run_cli("compare toy toy -k 0", {.timeout_s = 60});
  EXPECT_EQ(k.code, 2) << k.err;
  EXPECT_NE(k.err.find("must be at least 1 (got 0)"), std::string::npos) << k.err;
  EXPECT_LT(k.err.size(), 200u) << k.err;
  // The largest value itself is a number like any other.
  EXPECT_EQ(lumen_cli::run_cli("compare toy toy --seed 18446744073709551615 --json", {.timeout_s = 60}).code, 0);
}

// A count beyond what there is shows it all and says so, as `neighbours -k` does (they clamped silently).
TEST(CliOptionBounds, TopAndKBeyondTheVocabularyAreClampedWithANote) {
  const std::string gpt = lumen_cli::detail::quote(std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2");
  const auto top = lumen_cli::run_cli("gpt " + gpt + " 'the river bank' --top 100000", {.timeout_s = 60});
  ASSERT_EQ(top.code, 0) << top.err;
  EXPECT_NE(top.err.find("note: --top 100000 is more than the"), std::string::npos) << top.err;
  const auto k = lumen_cli::run_cli(
      "drift " + gpt + " --token bank 'the river bank was muddy' 'the bank approved the loan' -k 100000 --json",
      {.timeout_s = 60});
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_NE(k.err.find("note: -k 100000 is more than the"), std::string::npos) << k.err;
}
