// lumen's own options, --threads N and -q/--quiet, are accepted by every command and subcommand, after its name as
// well as before it (the README: "Every command takes ... --threads N").
#include <gtest/gtest.h>

#include "cli_run.hpp"
#include "command_tree.hpp"

#include <string>
#include <vector>

namespace test_global_options {

using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args, {.timeout_s = 120}); }

// Every command path, inner nodes too ("eval", "eval analogies", ...).
std::vector<std::string> all_command_paths() {
  std::vector<std::string> paths;
  for (const auto& c : lumen_cli::command_tree([](const std::string& path) { return lumen(path + " --help").out; }))
    paths.push_back(c.path);
  return paths;
}

TEST(GlobalOptions, EveryCommandListsAndChecksThreadsAfterItsName) {
  const auto paths = all_command_paths();
  ASSERT_GT(paths.size(), 10u);
  for (const auto& c : paths) {
    const CliRun help = lumen(c + " --help");
    EXPECT_NE(help.out.find("--threads"), std::string::npos) << "`lumen " << c << " --help` lacks --threads";
    EXPECT_NE(help.out.find("--quiet"), std::string::npos) << "`lumen " << c << " --help` lacks --quiet";
    // Recognised there (not "arguments were not expected"); a bad value is bad usage, as before the name.
    const CliRun bad = lumen(c + " --threads 5000");
    EXPECT_EQ(bad.code, 2) << bad.cmdline << "\n" << bad.err;
    EXPECT_EQ(bad.err.find("not expected"), std::string::npos) << bad.cmdline << "\n" << bad.err;
  }
}

TEST(GlobalOptions, ThreadsAfterTheCommandGivesTheSameAnswer) {
  const CliRun before = lumen("--threads 3 neighbours toy cat -k 3 --json");
  const CliRun after = lumen("neighbours toy cat -k 3 --json --threads 3");
  const CliRun quiet = lumen("neighbours toy cat -q -k 3 --json --threads=1");
  ASSERT_EQ(before.code, 0) << before.err;
  EXPECT_EQ(after.code, 0) << after.err;
  EXPECT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(after.out, before.out);
  EXPECT_EQ(quiet.out, before.out);
  // main builds only the options of the command the arguments name, found past every global option before it.
  for (const char* globals : {"-q --threads=2", "--quiet --threads 1", "--threads 2 -q"}) {
    const CliRun first = lumen(std::string(globals) + " neighbours toy cat -k 3 --json");
    EXPECT_EQ(first.code, 0) << first.cmdline << "\n" << first.err;
    EXPECT_EQ(first.out, before.out) << first.cmdline;
  }
  const CliRun eval = lumen("eval similarity toy " LUMEN_DATA_DIR "/wordsim353.tsv --threads 2 --json");
  EXPECT_EQ(eval.code, 0) << eval.err;
  const CliRun range = lumen("neighbours toy cat --threads 5000");
  EXPECT_EQ(range.code, 2) << range.err;
  EXPECT_NE(range.err.find("--threads"), std::string::npos) << range.err;
}

}  // namespace test_global_options
