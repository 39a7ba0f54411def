#pragma once
// Runs the built `lumen` as a user would from a shell: the CLI tests' one way to call the binary.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace lumen_cli {  // not lumen::, so that tests may name their helper lumen()

struct CliRun {
  int code = -1;        // exit status; 128 + signal if killed by one (the shell's convention)
  std::string out;      // stdout (and stderr too, with merge_stderr)
  std::string err;      // stderr, unless merged
  std::string cmdline;  // what ran, for failure messages
};

struct CliOptions {
  std::string input;          // bytes for stdin, exactly (empty: stdin is /dev/null)
  std::string env;            // e.g. "LUMEN_DEFAULT_TABLE=/x.vec", prefixed to the command
  bool merge_stderr = false;  // stderr into out, interleaved as a terminal would show it
  std::string cwd;            // working directory (empty: the test's own)
  int timeout_s = 0;          // killed after this long (exit code 124, as timeout(1) says); 0: no limit
};

namespace detail {
inline std::string temp_file(const std::string& contents) {
  std::string path = (std::filesystem::temp_directory_path() / "lumen-cli-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd >= 0) ::close(fd);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}
inline std::string quote(const std::string& s) {  // single-quoted for sh
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace detail

// Runs `cmd` under sh: its stdout, and its exit status in the shell's convention (128 + signal if killed by one).
inline std::string shell(const std::string& cmd, int* code = nullptr) {
  std::string out;
  int status = -1;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    status = ::pclose(p);
  }
  if (code != nullptr)
    *code = status == -1          ? -1
            : WIFEXITED(status)   ? WEXITSTATUS(status)
            : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                  : -1;
  return out;
}

inline CliRun run_cli(const std::string& args, const CliOptions& o = {}) {
  const std::string in = detail::temp_file(o.input), errf = detail::temp_file("");
  CliRun r;
  // stdin first, so that a redirection inside `args` (e.g. "- < file") wins.
  r.cmdline = (o.cwd.empty() ? "" : "cd " + detail::quote(o.cwd) + " && ") + o.env +
              (o.timeout_s > 0 ? " timeout " + std::to_string(o.timeout_s) : std::string()) +
              " " LUMEN_BINARY_DIR "/lumen <" + in + " " + args + (o.merge_stderr ? " 2>&1" : " 2>" + errf);
  r.out = shell(r.cmdline, &r.code);
  std::ifstream e(errf, std::ios::binary);
  r.err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
  std::filesystem::remove(in);
  std::filesystem::remove(errf);
  return r;
}

}  // namespace lumen_cli
