// The CLI's exit-code convention (docs/exit-codes.md), checked on the built binary for every registered
// command: 0 ok, 1 bad input (a file, a word, an id), 2 bad usage, 3 internal error. Every failing run must also
// say why on stderr, and leave no file behind in its working directory (no half-written output).
#include <gtest/gtest.h>

#include "cli_run.hpp"
#include "command_tree.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace test_exit_codes {

using Result = lumen_cli::CliRun;
using lumen_cli::command_tree;
using lumen_cli::subcommands;

// A scratch directory per test, removed at the end.
class Scratch {
 public:
  Scratch() {
    std::string t = (fs::temp_directory_path() / "lumen-exit-XXXXXX").string();
    if (mkdtemp(t.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = t;
    fs::create_directories(root_ / "in");
    fs::create_directories(root_ / "cwd");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  fs::path in(const std::string& name) const { return root_ / "in" / name; }
  fs::path cwd() const { return root_ / "cwd"; }
  fs::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(in(name), std::ios::binary) << bytes;
    return in(name);
  }

 private:
  fs::path root_;
};

// Runs `lumen ARGS` in the scratch cwd with empty stdin (or `input`), at most 120 s (timeout: exit 124).
Result lumen(const Scratch& s, const std::string& args, const std::string& input = "") {
  return lumen_cli::run_cli(args, {.input = input, .cwd = s.cwd().string(), .timeout_s = 120});
}

std::string show(const Result& r) { return r.cmdline + "\n--- stdout:\n" + r.out + "\n--- stderr:\n" + r.err; }

// Files the run left in its working directory (it starts empty).
std::vector<std::string> leftovers(const Scratch& s) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(s.cwd())) out.push_back(e.path().filename().string());
  return out;
}

// Every command path ("tour", "eval analogies", ...): the leaves of the command tree (walked once).
std::vector<std::string> command_paths(const Scratch& s) {
  static std::vector<std::string> leaves;
  if (!leaves.empty()) return leaves;
  for (const auto& c : command_tree([&s](const std::string& path) { return lumen(s, path + " --help").out; }))
    if (c.leaf) leaves.push_back(c.path);
  return leaves;
}

// How to call a command that reads a table with TABLE as its table (and its other required arguments valid).
// A command missing here is called as `COMMAND TABLE`: add a line when a command needs more arguments.
std::string table_invocation(const std::string& command, const std::string& table) {
  const std::string data = LUMEN_DATA_DIR;
  static const std::map<std::string, std::string> kWithTable = {
      {"analogy", "analogy {T} man king woman"},
      {"claims", "claims {T} --skip-lm --skip-gpt"},
      {"compare", "compare {T} --heads"},
      {"convert", "convert {T} out.safetensors"},
      {"doesnt-match", "doesnt-match {T} breakfast cereal dinner lunch"},
      {"eval analogies", "eval analogies {T} '" + data + "/questions-words.txt'"},
      {"eval similarity", "eval similarity {T} '" + data + "/wordsim353.tsv'"},
      {"neighbours", "neighbours {T} king"},
      {"onehot", "onehot {T} the"},
      {"probe", "probe {T} gender"},
      {"project", "project {T} -o map.svg"},
      {"serve", "serve {T} --port 0"},
      {"similarity", "similarity {T} king queen"},
  };
  auto it = kWithTable.find(command);
  std::string pattern = it != kWithTable.end() ? it->second : command + " {T}";
  const auto pos = pattern.find("{T}");
  return pattern.replace(pos, 3, "'" + table + "'");
}

bool reads_table(const Scratch& s, const std::string& command) {
  return lumen(s, command + " --help").out.find("--unicode-errors") != std::string::npos;
}

TEST(ExitCodes, HelpIsZeroAndStatesTheConvention) {
  Scratch s;
  const Result r = lumen(s, "--help");
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_NE(r.out.find("Exit codes: 0 ok, 1 bad input"), std::string::npos) << show(r);
  EXPECT_FALSE(subcommands(r.out).empty()) << "no commands listed\n" << show(r);
}

TEST(ExitCodes, VersionIsZero) {
  Scratch s;
  const Result r = lumen(s, "--version");
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(r.out.rfind("lumen ", 0), 0u) << show(r);
}

TEST(ExitCodes, VersionNamesTheKernelVariantsThisCpuRuns) {
  Scratch s;
  const Result r = lumen(s, "--version");
  EXPECT_NE(r.out.find("(kernels: generic"), std::string::npos) << show(r);
}

// LUMEN_ISA asks for a kernel variant; one lumen does not know, or one the CPU lacks, is refused before any work
// (it used to be replaced by the best variant without a word).
TEST(ExitCodes, BadLumenIsaIsAUsageError) {
  Scratch s;
  for (const char* isa : {"sse9", "AVX2"}) {
    const Result r = lumen_cli::run_cli(
        "params gpt2", {.env = std::string("LUMEN_ISA=") + isa, .cwd = s.cwd().string(), .timeout_s = 120});
    EXPECT_EQ(r.code, 2) << show(r);
    EXPECT_NE(r.err.find(std::string("LUMEN_ISA=") + isa), std::string::npos) << show(r);
    EXPECT_TRUE(r.out.empty()) << show(r);
  }
  const Result v = lumen(s, "--version");
  if (v.out.find(" avx512)") == std::string::npos) {  // a CPU without AVX-512 must refuse it
    const Result r = lumen_cli::run_cli("params gpt2", {.env = "LUMEN_ISA=avx512", .cwd = s.cwd().string()});
    EXPECT_EQ(r.code, 2) << show(r);
    EXPECT_NE(r.err.find("lacks avx512"), std::string::npos) << show(r);
  }
  for (const char* isa : {"generic", ""}) {
    const Result r =
        lumen_cli::run_cli("params gpt2", {.env = std::string("LUMEN_ISA=") + isa, .cwd = s.cwd().string()});
    EXPECT_EQ(r.code, 0) << show(r);
  }
}

TEST(ExitCodes, UnknownCommandIsUsageError) {
  Scratch s;
  const Result r = lumen(s, "no-such-command");
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_NE(r.err.find("no-such-command"), std::string::npos) << show(r);
}

TEST(ExitCodes, BadGlobalOptionsAreUsageErrors) {
  Scratch s;
  for (const char* args : {"--no-such-option", "--threads abc", "--threads 5000", "--threads -1", "--threads"}) {
    const Result r = lumen(s, args);
    EXPECT_EQ(r.code, 2) << show(r);
    EXPECT_FALSE(r.err.empty()) << show(r);
  }
}

TEST(ExitCodes, EveryCommandHasHelpWithAnExample) {
  Scratch s;
  const auto commands = command_paths(s);
  ASSERT_FALSE(commands.empty());
  for (const auto& c : commands) {
    const Result r = lumen(s, c + " --help");
    EXPECT_EQ(r.code, 0) << show(r);
    EXPECT_NE(r.out.find("Example"), std::string::npos) << "`lumen " << c << " --help` shows no example\n" << show(r);
  }
}

TEST(ExitCodes, EveryCommandRejectsAnUnknownOptionWithUsageError) {
  Scratch s;
  for (const auto& c : command_paths(s)) {
    const Result r = lumen(s, c + " --no-such-option-zz");
    EXPECT_EQ(r.code, 2) << show(r);
    // CLI11 names the option, or first a missing required argument; either way it says what to do.
    EXPECT_NE(r.err.find("--help"), std::string::npos) << show(r);
    EXPECT_TRUE(leftovers(s).empty()) << show(r);
  }
}

// Every command that reads a table: a missing, empty or garbage table file is bad input (1), named in the
// message; a bad --format/--dtype/--unicode-errors value is bad usage (2). Nothing is written.
TEST(ExitCodes, EveryTableCommandRejectsBadTablesAndTableOptions) {
  Scratch s;
  const std::string missing = s.in("missing.vec").string();
  const std::string empty = s.write("empty.vec", "").string();
  std::string garbage_bytes;
  for (int i = 0; i < 4096; ++i) garbage_bytes.push_back(static_cast<char>((i * 2654435761u) >> 13));
  const std::string garbage = s.write("garbage.bin", garbage_bytes).string();
  const std::string truncated = s.write("truncated.vec", "3 4\nthe 0.1 0.2 0.3 0.4\nof 0.5 0.").string();
  int table_commands = 0;
  for (const auto& c : command_paths(s)) {
    if (!reads_table(s, c)) continue;
    ++table_commands;
    for (const auto& [path, name] : std::vector<std::pair<std::string, std::string>>{
             {missing, "missing.vec"}, {empty, "empty.vec"}, {garbage, "garbage.bin"}, {truncated, "truncated.vec"}}) {
      const Result r = lumen(s, table_invocation(c, path));
      EXPECT_EQ(r.code, 1) << show(r);
      EXPECT_NE(r.err.find(name), std::string::npos) << "the message should name the file\n" << show(r);
      EXPECT_EQ(r.err.find("internal error"), std::string::npos) << show(r);
      EXPECT_TRUE(leftovers(s).empty()) << show(r);
    }
    for (const char* opt : {"--format no-such-format", "--dtype int8", "--unicode-errors bogus"}) {
      const Result r = lumen(s, table_invocation(c, missing) + " " + opt);
      EXPECT_EQ(r.code, 2) << show(r);
      EXPECT_FALSE(r.err.empty()) << show(r);
      EXPECT_TRUE(leftovers(s).empty()) << show(r);
    }
  }
  EXPECT_GT(table_commands, 0) << "no command shows --unicode-errors in its help";
}

}  // namespace test_exit_codes
