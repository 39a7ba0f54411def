#include "stop_on_signal.hpp"

#include <csignal>

namespace lumen::cli {

namespace {
std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop.store(true); }
}  // namespace

StopOnSignal::StopOnSignal() {
  g_stop = false;
  old_int_ = std::signal(SIGINT, on_stop_signal);
  old_term_ = std::signal(SIGTERM, on_stop_signal);
}

StopOnSignal::~StopOnSignal() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
}

std::atomic<bool>* StopOnSignal::flag() const { return &g_stop; }

}  // namespace lumen::cli
