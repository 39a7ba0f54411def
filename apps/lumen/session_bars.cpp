#include "session_bars.hpp"

#include <fmt/format.h>
#include <utility>

#include "command.hpp"
#include "messages.hpp"

namespace lumen::cli {

SessionBars::SessionBars(std::string label, std::string unit, Extra extra)
    : label_(std::move(label)), unit_(std::move(unit)), extra_(std::move(extra)) {}

void SessionBars::update(const train::SessionProgress& p) {
  const bool training = p.phase == train::SessionPhase::training;
  if (!bar_ || p.phase != phase_) {
    bar_.reset();
    phase_ = p.phase;
    bar_.emplace(training ? label_ : train::phase_name(p.phase), p.total, training ? unit_ : "bytes");
  }
  bar_->update(p.done, training ? extra_(p) : "");
}

void SessionBars::finish() {
  if (bar_) bar_->finish();
}

int session_interrupted(train::SessionStatus status, const std::string& checkpoint, const std::string& at) {
  if (status == train::SessionStatus::stopped_before_training)
    print_error("interrupted before training started; nothing written");
  else
    print_error(
        fmt::format("interrupted{}; checkpoint written to {} (continue with --resume {})", at, checkpoint, checkpoint));
  return kInterrupted;
}

}  // namespace lumen::cli
