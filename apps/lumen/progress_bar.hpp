#pragma once
// The CLI's progress bar on stderr, drawn only when stderr is a terminal and not disabled (--json, -q).
// Updates are throttled. The library never draws one: it reports progress through callbacks, and the
// commands turn those into this bar.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
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

// The bar for the library's progress callbacks, (stage, done, total): nothing until the work has taken `delay`
// (so quick work draws nothing), then a bar per stage, a new one when the stage changes; or, with `label`, one bar
// under that label with the stage shown beside it. Finished when it goes, on an error too.
class StageBar {
 public:
  struct Options {
    std::string unit;                                        // what is counted ("rows"), for the rate
    std::function<std::string(const std::string&)> unit_of;  // or the unit for each stage
    std::string label;                                       // non-empty: one bar, the stage as its extra
    std::chrono::milliseconds delay = std::chrono::seconds(1);
  };
  StageBar() : StageBar(Options{}) {}
  explicit StageBar(Options o);
  void operator()(const std::string& stage, std::uint64_t done, std::uint64_t total);
  void finish() { bar_.reset(); }

 private:
  Options o_;
  std::chrono::steady_clock::time_point start_;
  std::unique_ptr<Progress> bar_;
  std::string stage_;
};

}  // namespace lumen::cli
