#pragma once
// What the CLI's training tests share: a fresh directory, a small corpus of ten words, the tiny GPT's options, and
// a run of the built `lumen` that is sent Ctrl-C once training is under way.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"

namespace lumen_cli {

// A fresh directory for one test (d.path), removed after it.
class TestDir {
  lumen::test::TempDir dir_;

 public:
  explicit TestDir(const std::string& prefix) : dir_(prefix), path(dir_.p) {}
  std::filesystem::path path;
};

// `sentences` lines of 8 words drawn from ten ("the cat sat on a mat ..."), the same every run.
inline void write_ten_word_corpus(const std::filesystem::path& p, int sentences) {
  const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "home"};
  std::ofstream out(p);
  unsigned x = 12345;
  for (int s = 0; s < sentences; ++s) {
    for (int i = 0; i < 8; ++i) {
      x = x * 1103515245u + 12345u;
      out << (i ? " " : "") << words[(x >> 16) % 10];
    }
    out << ".\n";
  }
}

// `lumen train gpt`'s options for a GPT small enough to train in a test's time.
inline const std::string kTinyGpt =
    " --layers 1 --d-model 8 --heads 2 --context 8 --batch 2 --eval-batches 1 --threads 1";

// Runs `lumen -q ARGS...`, sends SIGINT once `ckpt` exists (its first periodic checkpoint: training runs), and
// returns the exit status (-1 if it did not exit).
inline int interrupted_run(const std::vector<std::string>& args, const std::string& ckpt) {
  const std::string lumen = LUMEN_BINARY_DIR "/lumen";
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (std::freopen("/dev/null", "w", stderr) == nullptr) _exit(126);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) _exit(126);
    std::vector<char*> argv{const_cast<char*>("lumen"), const_cast<char*>("-q")};  // NOLINT
    for (const auto& s : args) argv.push_back(const_cast<char*>(s.c_str()));       // NOLINT
    argv.push_back(nullptr);
    execv(lumen.c_str(), argv.data());
    _exit(127);
  }
  for (int i = 0; i < 5000 && !std::filesystem::exists(ckpt); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The same with the arguments as one line, split at spaces (the tests' paths have none).
inline int interrupted_run(const std::string& args, const std::string& ckpt) {
  std::vector<std::string> words;
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  return interrupted_run(words, ckpt);
}

}  // namespace lumen_cli
