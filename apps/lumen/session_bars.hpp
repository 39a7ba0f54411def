#pragma once
// What `lumen train word2vec | lm | gpt` show of a training session (lumen/train/session.hpp): a bar per phase
// (the vocabulary, the tokenizing, the training), and what a session that did not finish says.
#include <functional>
#include <optional>
#include <string>

#include "lumen/train/session.hpp"
#include "progress_bar.hpp"

namespace lumen::cli {

class SessionBars {
 public:
  // label and unit: the training bar's ("word2vec", "words"); extra: its text after the count (loss, lr).
  using Extra = std::function<std::string(const train::SessionProgress&)>;
  SessionBars(std::string label, std::string unit, Extra extra);
  void update(const train::SessionProgress& p);
  void finish();

 private:
  std::string label_, unit_;
  Extra extra_;
  std::optional<Progress> bar_;
  train::SessionPhase phase_ = train::SessionPhase::vocabulary;
};

// A session that did not finish says so on stderr ("interrupted at step 40; checkpoint written to X (continue with
// --resume X)"); returns the exit code. at: where it stopped ("" or " at step 40").
int session_interrupted(train::SessionStatus status, const std::string& checkpoint, const std::string& at = "");

}  // namespace lumen::cli
