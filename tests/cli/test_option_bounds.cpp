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
