// lumen: the CLI. Parsing and printing only; all the work is in the library.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <new>
#include <stdexcept>
#include <string_view>

#include "command.hpp"
#include "interrupt.hpp"
#include "lumen/core/data_paths.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/core/threads.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli {
std::vector<Command>& registry() {
  static std::vector<Command> r;
  return r;
}

namespace {
std::vector<std::string> g_command_line;
}
const std::vector<std::string>& command_line() { return g_command_line; }
}  // namespace lumen::cli

namespace {

// The build tree's top (lumen sits there) or an installed prefix's bin/: where core/data_paths.hpp looks.
std::string executable_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

// --threads and --quiet are lumen's own, and the README promises them to every command: they are accepted
// before the command name and after it, on every command and subcommand, into the same variables. A command
// with a --threads of its own (train's) keeps it; it falls back to lumen's when 0.
void add_global_options(CLI::App& cmd, std::size_t& threads, bool& quiet) {
  for (CLI::App* sub : cmd.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_option_no_throw("--threads") == nullptr)
      sub->add_option("--threads", threads, "Worker threads (default: all cores)")
          ->check(CLI::Range(std::size_t{0}, lumen::kMaxThreads));
    if (sub->get_option_no_throw("--quiet") == nullptr) sub->add_flag("-q,--quiet", quiet, "No progress bars");
    add_global_options(*sub, threads, quiet);
  }
}

// CLI11 converts "-1" to an unsigned option's 2^64 - 1 and saturates bigger numbers: every count, size and seed
// of every command is checked as a whole number that fits (option_checks.hpp), in one place.
void check_unsigned_options(CLI::App& cmd) {
  for (CLI::Option* o : cmd.get_options())
    if (o->get_type_name().starts_with("UINT")) o->check(lumen::cli::whole_count());
  for (CLI::App* sub : cmd.get_subcommands([](CLI::App*) { return true; })) check_unsigned_options(*sub);
}

// The command the arguments name: the first argument that is neither a global option nor --threads' value, if it
// is a command's name. Only that command's options are built: building every command's (CLI11 objects, a few
// hundred kB of heap) cost each start about 100 page faults. The others are still listed, by name, for --help.
const lumen::cli::Command* named_command(int argc, char** argv, const std::vector<lumen::cli::Command>& cmds) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--threads") {
      ++i;  // its value
      continue;
    }
    if (a.starts_with("-")) continue;
    for (const auto& c : cmds)
      if (c.name == a) return &c;
    return nullptr;
  }
  return nullptr;
}

int run(int argc, char** argv) {
  using namespace lumen::cli;
  g_command_line.assign(argv, argv + argc);
  CLI::App app{"lumen: a toolkit for the embedding layer of language models (the V x d table E)", "lumen"};
  // The kernel variants this CPU runs, so that scripts (scripts/test-isas.sh) can test each one.
  std::string isas;
  for (lumen::Isa i : lumen::available_isas()) isas += fmt::format("{}{}", isas.empty() ? "" : " ", lumen::isa_name(i));
  app.set_version_flag("--version", fmt::format("lumen {} (kernels: {})", LUMEN_VERSION, isas));
  app.require_subcommand(0, 1);
  std::size_t threads = 0;
  bool quiet = false;
  app.add_option("--threads", threads, "Worker threads (default: all cores)")
      ->check(CLI::Range(std::size_t{0}, lumen::kMaxThreads));
  app.add_flag("-q,--quiet", quiet, "No progress bars");
  app.footer(
      "Run `lumen` alone for a tour of the embedding layer; `lumen COMMAND --help` for a command.\n"
      "Exit codes: 0 ok, 1 bad input (file, word, id), 2 bad usage, 3 internal error, 130 interrupted.");

  auto& cmds = registry();
  std::stable_sort(cmds.begin(), cmds.end(), [](const Command& a, const Command& b) { return a.order < b.order; });
  // No command named: the tour is the main job, run with its defaults.
  const Command* named = named_command(argc, argv, cmds);
  const std::string chosen = named != nullptr ? named->name : "tour";
  std::map<CLI::App*, Action> actions;
  try {
    for (auto& c : cmds) {
      CLI::App* sub = app.add_subcommand(c.name, c.description);
      if (c.name == chosen) actions[sub] = c.setup(*sub);
    }
    add_global_options(app, threads, quiet);
    check_unsigned_options(app);
  } catch (const std::exception& e) {
    print_error(fmt::format("internal error while setting up commands: {}", e.what()));
    return kInternalError;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsageError;
  }

  install_interrupt_cleanup();  // an interrupted write leaves no temporary file behind
  lumen::set_data_paths(lumen::find_data_paths(executable_dir()));  // the library compiles in no path of its own
  lumen::set_default_threads(threads);
  if (quiet) lumen::cli::Progress::set_enabled(false);

  try {
    lumen::active_isa();                           // a LUMEN_ISA this CPU cannot run is refused here, before any work
    for (CLI::App* sub : app.get_subcommands()) {  // the one parsed; nested subcommands dispatch inside its action
      const auto it = actions.find(sub);
      if (it == actions.end())
        throw std::logic_error(fmt::format("command {} was parsed but not set up", sub->get_name()));
      return it->second ? it->second() : kOk;
    }
    // No command: the main job, the tour, with its defaults.
    for (auto& [sub, action] : actions)
      if (sub->get_name() == "tour" && action) return action();
    fmt::print("{}", app.help());
    return kOk;
  } catch (const lumen::UsageError& e) {
    print_error(e.text_for(option_flag));  // an option the library names ({tensor}) spelled as its flag
    return kUsageError;
  } catch (const lumen::InputError& e) {
    print_error(e.text_for(option_flag));
    return kInputError;
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
    return kInternalError;
  } catch (const std::exception& e) {
    print_error(fmt::format("internal error: {}", e.what()));
    return kInternalError;
  }
}
}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (...) {  // run() maps every lumen error to its exit code; this is the last resort (e.g. printing failed)
    std::fputs("lumen: internal error\n", stderr);
    return lumen::cli::kInternalError;
  }
}
