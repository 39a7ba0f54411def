#include "progress_bar.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace lumen::cli {

namespace {
std::atomic<bool> g_enabled{true};

std::string human_rate(double per_s) {
  if (per_s >= 1e6) return fmt::format("{:.2f}M", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.1f}k", per_s / 1e3);
  return fmt::format("{:.0f}", per_s);
}

std::string hms(double s) {
  const auto t = static_cast<long>(s);
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, (t / 60) % 60, t % 60);
  return fmt::format("{}:{:02}", t / 60, t % 60);
}
}  // namespace

void Progress::set_enabled(bool on) { g_enabled.store(on); }
bool Progress::enabled() { return g_enabled.load(); }

Progress::Progress(std::string label, std::uint64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      visible_(enabled() && isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done, const std::string& extra) {
  if (!visible_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  draw(done, extra, false);
}

void Progress::finish() {
  if (!visible_ || finished_) return;
  finished_ = true;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

void Progress::draw(std::uint64_t done, const std::string& extra, bool) {
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
  std::string line = label_ + " ";
  if (total_ > 0) {
    const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
    constexpr int width = 30;
    const int fill = static_cast<int>(frac * width);
    line += "[" + std::string(static_cast<std::size_t>(fill), '#') +
            std::string(static_cast<std::size_t>(width - fill), '.') + "] ";
    line += fmt::format("{:5.1f}% ", frac * 100.0);
    if (rate > 0 && done < total_) line += "ETA " + hms(static_cast<double>(total_ - done) / rate) + " ";
  } else {
    line += fmt::format("{} ", done);
  }
  if (!unit_.empty()) line += human_rate(rate) + " " + unit_ + "/s ";
  line += extra;
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

StageBar::StageBar(Options o) : o_(std::move(o)), start_(std::chrono::steady_clock::now()) {}

void StageBar::operator()(const std::string& stage, std::uint64_t done, std::uint64_t total) {
  if (!bar_ && std::chrono::steady_clock::now() - start_ < o_.delay) return;
  const bool one_bar = !o_.label.empty();
  if (!bar_ || (!one_bar && stage != stage_)) {
    bar_.reset();  // the old stage's line is cleared before the new one draws
    bar_ = std::make_unique<Progress>(one_bar ? o_.label : stage, total, o_.unit_of ? o_.unit_of(stage) : o_.unit);
    stage_ = stage;
  }
  bar_->update(done, one_bar ? stage : std::string());
}

}  // namespace lumen::cli
