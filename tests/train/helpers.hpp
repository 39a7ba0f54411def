#pragma once
// Small corpora written to a fresh temporary directory for the train tests.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/train/control.hpp"

namespace lumen::train::test {

inline std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("lumen-train-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Two topics that never share a sentence: animals and politics, with shared function words.
inline std::string topic_corpus(std::size_t sentences, std::uint64_t seed = 7) {
  const std::vector<std::string> animals = {"cat", "dog", "horse", "mouse", "cow", "sheep", "bird", "fish"};
  const std::vector<std::string> politics = {"parliament", "minister", "vote",  "election",
                                             "senate",     "law",      "party", "government"};
  const std::vector<std::string> glue = {"the", "a", "of", "and", "is", "in"};
  Rng rng(seed);
  std::string out;
  for (std::size_t s = 0; s < sentences; ++s) {
    const auto& topic = (s % 2 == 0) ? animals : politics;
    const std::size_t len = 6 + rng.below(6);
    for (std::size_t i = 0; i < len; ++i) {
      if (i) out += ' ';
      out += (rng.below(3) == 0) ? glue[rng.below(glue.size())] : topic[rng.below(topic.size())];
    }
    out += '\n';
  }
  return out;
}

// Trains `model` until its first checkpoint (every `every` words), written to `path`, and stops there. Returns
// what train() returned (false: stopped) and how many checkpoints were written.
template <class Model>
std::pair<bool, int> train_to_first_checkpoint(Model& model, std::uint64_t every, const std::string& path) {
  std::atomic<bool> stop{false};
  TrainControl control;
  control.stop = &stop;
  control.checkpoint_every = every;
  int checkpoints = 0;
  control.on_checkpoint = [&] {
    model.save_checkpoint(path);
    ++checkpoints;
    stop = true;
  };
  const bool done = model.train(control);
  return {done, checkpoints};
}

}  // namespace lumen::train::test
