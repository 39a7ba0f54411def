#pragma once
// Commands register themselves: each apps/lumen/cmd_*.cpp defines one static `Register`, so adding a command
// touches no shared file. A command's setup adds its options to its CLI11 subcommand and returns the action
// to run once the arguments are parsed. The action returns the exit code (0 ok); errors are thrown
// (lumen::InputError -> 1, lumen::UsageError -> 2, anything else -> 3; see docs/exit-codes.md).
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace lumen::cli {

using Action = std::function<int()>;
using Setup = std::function<Action(CLI::App& cmd)>;

struct Command {
  std::string name;
  std::string description;
  Setup setup;
  int order;  // position in `lumen --help` (lower first)
};

std::vector<Command>& registry();

// The command line as given to main (argv), for a command that hands it on whole (serve: cmd_serve_exec.cpp).
const std::vector<std::string>& command_line();

struct Register {
  Register(std::string name, std::string description, Setup setup, int order = 100) {
    registry().push_back({std::move(name), std::move(description), std::move(setup), order});
  }
};

// Exit codes, one convention for every command.
enum Exit : int { kOk = 0, kInputError = 1, kUsageError = 2, kInternalError = 3, kInterrupted = 130 };

}  // namespace lumen::cli
