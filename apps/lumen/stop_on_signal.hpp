#pragma once
// Long work that ends cleanly on Ctrl-C (training, generation): while a StopOnSignal lives, SIGINT and SIGTERM set
// its flag instead of ending the process, and the work stops at its next check; the previous handlers come back
// when it goes. One at a time (the flag is process-wide: a signal handler can reach nothing else).
#include <atomic>

namespace lumen::cli {

class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  // What the library's stop pointers take (train::SessionControl::stop, GptControl::stop).
  std::atomic<bool>* flag() const;
  bool requested() const { return flag()->load(); }

 private:
  using Handler = void (*)(int);
  Handler old_int_, old_term_;
};

}  // namespace lumen::cli
