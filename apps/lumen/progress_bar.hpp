#pragma once
// The CLI's progress bar on stderr, drawn only when stderr is a terminal and not disabled (--json, -q).
// Updates are throttled. The library never draws one: it reports progress through callbacks, and the
// commands turn those into this bar.
#include <chrono>
#include <cstdint>
#include <string>

namespace lumen::cli {

class Progress {
 public:
  // total = 0: unknown total (shows a count). `unit` names what is counted ("words", "rows").
  Progress(std::string label, std::uint64_t total, std::string unit = "");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(std::uint64_t done, const std::string& extra = "");  // extra: e.g. "loss 3.21"
  void finish();
  bool visible() const { return visible_; }

  // Global switch: the CLI turns bars off for --json, pipes and --quiet.
  static void set_enabled(bool on);
  static bool enabled();

 private:
  void draw(std::uint64_t done, const std::string& extra, bool final);
  std::string label_, unit_;
  std::uint64_t total_;
  bool visible_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace lumen::cli
