#pragma once
// lumen train gpt: the subcommand's options and action, hooked into `lumen train` by cmd_train.cpp.
#include <CLI/CLI.hpp>

#include "command.hpp"

namespace lumen::cli {

// Adds the options of `lumen train gpt` to gpt_cmd; the action runs it once parsed.
Action setup_train_gpt(CLI::App& gpt_cmd);

}  // namespace lumen::cli
