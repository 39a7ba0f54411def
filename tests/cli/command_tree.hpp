#pragma once
// The CLI's commands as its help texts list them, for tests that check something of every command.
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace lumen_cli {

// The names in the "Subcommands:" section of a help text.
inline std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Subcommands:", 0) == 0 || line.rfind("SUBCOMMANDS:", 0) == 0) {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.empty() || line[0] != ' ') break;
    std::istringstream words(line);
    if (std::string name; words >> name) names.push_back(name);
  }
  return names;
}

struct CommandPath {
  std::string path;  // "tour", "eval", "eval analogies", ...
  bool leaf;         // no subcommands of its own
};

// Every command path, inner nodes and leaves, walked from the help texts: help(PATH) is what
// `lumen PATH --help` prints (PATH "" for lumen's own help).
inline std::vector<CommandPath> command_tree(const std::function<std::string(const std::string&)>& help) {
  std::vector<CommandPath> paths;
  std::vector<std::string> todo = subcommands(help(""));
  while (!todo.empty()) {
    const std::string path = todo.back();
    todo.pop_back();
    const auto subs = subcommands(help(path));
    paths.push_back({path, subs.empty()});
    for (const auto& sub : subs) todo.push_back(path + " " + sub);
  }
  return paths;
}

}  // namespace lumen_cli
