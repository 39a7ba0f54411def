#pragma once
// SIGINT and SIGTERM held back on this thread for a scope: while a temporary file or directory is created and
// registered with lumen::temp_files (so that a handler running here never misses it), or while a directory is swapped
// into place (so that a handler never sees the target missing). A process-directed signal taken by another thread in
// those few microseconds still can be; registering before creating would instead risk removing what is not ours.
#include <csignal>
#include <pthread.h>

namespace lumen::detail {

class HoldInterrupts {
 public:
  HoldInterrupts() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~HoldInterrupts() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  HoldInterrupts(const HoldInterrupts&) = delete;
  HoldInterrupts& operator=(const HoldInterrupts&) = delete;

 private:
  sigset_t old_{};
};

}  // namespace lumen::detail
