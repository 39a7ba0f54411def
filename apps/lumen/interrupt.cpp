#include "interrupt.hpp"

#include <csignal>
#include <initializer_list>

#include "lumen/core/temp_files.hpp"

namespace lumen::cli {

namespace {

// Async-signal-safe only: unlink(2) through temp_files::remove_all(), sigaction(2), raise(3).
extern "C" void remove_temporaries_and_die(int sig) {
  lumen::temp_files::remove_all();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  raise(sig);  // pending until this handler returns (the signal is blocked in it), then the default: death
}

}  // namespace

void install_interrupt_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = remove_temporaries_and_die;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);  // one handler at a time, whichever signal came first
  sigaddset(&sa.sa_mask, SIGTERM);
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    // A signal ignored by whoever started lumen (nohup, `cmd &` in a script) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace lumen::cli
