#pragma once
// How a caller steers a long training run: a stop flag (Ctrl-C), periodic checkpoints, progress reports.
// The library never installs signal handlers or prints; the CLI does both and passes this in.
#include <atomic>
#include <cstdint>
#include <functional>

namespace lumen::train {

struct TrainStatus {
  std::uint64_t words_done = 0;   // tokens processed so far (in-vocabulary, before subsampling)
  std::uint64_t words_total = 0;  // epochs x tokens per epoch
  double loss = 0;                // mean loss since the previous report (the trainer's own loss)
  double lr = 0;                  // current learning rate
  std::size_t epoch = 0;          // 0-based epoch the slowest thread is in
  double seconds = 0;             // wall time of this train() call
};

struct TrainControl {
  const std::atomic<bool>* stop = nullptr;  // when set, threads stop at the next sentence; train() returns false
  std::uint64_t checkpoint_every = 0;       // words between checkpoints (0: none)
  std::function<void()> on_checkpoint;      // called with every thread paused at a resumable point
  std::function<void(const TrainStatus&)> on_progress;  // about ten times a second, from the calling thread
};

}  // namespace lumen::train
