// lumen serve, as `lumen` runs it: the command line, unchanged, becomes lumen-serve's (see serve_command.hpp).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "command.hpp"
#include "lumen/core/error.hpp"
#include "serve_command.hpp"

namespace lumen::cli::cmd_serve_exec {
namespace {

// lumen-serve lies beside the running lumen (build/ or the directory it was installed to).
std::filesystem::path serve_executable() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(fmt::format("lumen serve: cannot find lumen's own path (/proc/self/exe): {}", ec.message()));
  return self.parent_path() / kServeExecutable;
}

Action setup(CLI::App& cmd) {
  // Everything after `serve` is lumen-serve's to read, --help included: it prints serve's own help.
  cmd.set_help_flag();
  cmd.allow_extras();
  cmd.prefix_command();
  return []() -> int {
    const auto exe = serve_executable();
    std::vector<std::string> args = command_line();
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    ::execv(exe.c_str(), argv.data());
    throw Error(
        fmt::format("lumen serve runs {}, which cannot be started: {}. It is built beside lumen "
                    "(cmake --build build); a copied lumen needs lumen-serve copied beside it.",
                    exe.string(), std::strerror(errno)));
  };
}

const Register reg(kServeName, kServeDescription, setup, kServeOrder);

}  // namespace
}  // namespace lumen::cli::cmd_serve_exec
