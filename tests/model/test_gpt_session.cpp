// The GPT training session (lumen/model/gpt_session.hpp), what `lumen train gpt` and Python's lumen.train.gpt run:
// it writes the directory when finished, checkpoints when stopped and resumes to what a straight run computes, and
// refuses bad outputs before any work.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/model/gpt_session.hpp"
#include "lumen/model/gpt_session_json.hpp"
#include "tiny_gpt.hpp"

using namespace lumen;
using namespace lumen::model;
namespace fs = std::filesystem;

namespace test_gpt_session {

struct Dir {
  fs::path path;
  std::vector<std::string> corpus;
  explicit Dir(const std::string& name)
      : path(fs::temp_directory_path() / ("lumen-gpt-session-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
    std::ofstream out(path / "c.txt", std::ios::binary);
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "far"};
    for (std::size_t i = 0; i < 6000; ++i) out << words[(i * 7 + i / 13) % 10] << ((i % 11 == 10) ? ".\n" : " ");
    corpus = {(path / "c.txt").string()};
  }
  ~Dir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

GptTrainOptions tiny() {
  GptTrainOptions o = model::testing::tiny_gpt_options();
  o.layers = 1;
  o.tokenizer = "words";
  o.max_words = 50;
  return o;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(GptSession, FinishedWritesTheDirectoryAndSaysSo) {
  Dir d("fresh");
  std::vector<train::SessionPhase> phases;
  std::size_t steps = 0, evals = 0;
  GptSessionControl c;
  c.on_progress = [&](const train::SessionProgress& p) {
    if (phases.empty() || phases.back() != p.phase) phases.push_back(p.phase);
  };
  c.on_step = [&](const GptStep&) { ++steps; };
  c.on_eval = [&](const GptEval&) { ++evals; };
  const auto r = train_gpt(d.corpus, tiny(), {d / "m", ""}, c);
  EXPECT_EQ(r.status, train::SessionStatus::finished);
  EXPECT_EQ(phases, (std::vector{train::SessionPhase::vocabulary, train::SessionPhase::tokenize,
                                 train::SessionPhase::training}));
  EXPECT_EQ(steps, 12u);
  EXPECT_EQ(evals, 3u);
  EXPECT_EQ(r.output, d / "m");
  EXPECT_EQ(r.step, 12u);
  for (const char* f : {"config.json", "model.safetensors", "tokenizer.json"})
    EXPECT_TRUE(fs::exists(d.path / "m" / f));
  EXPECT_FALSE(fs::exists(d.path / "m.ckpt"));
  const auto j = gpt_session_json(r);
  std::set<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"output", "V", "layers", "d_model", "heads", "context", "tied", "tokenizer",
                                         "steps", "batch", "lr", "seed", "train_tokens", "heldout_tokens", "evals",
                                         "heldout_loss", "heldout_perplexity", "seconds"}));
  EXPECT_EQ(j["V"], r.shape.V);
  EXPECT_EQ(j["evals"].size(), 3u);
  EXPECT_EQ(j["heldout_loss"].get<double>(), r.evals.back().heldout_loss);
  EXPECT_GT(r.train_tokens, 0u);
}

TEST(GptSession, StoppedCheckpointsAndResumeEqualsAStraightRun) {
  Dir d("resume");
  const auto straight = train_gpt(d.corpus, tiny(), {d / "straight", ""});
  std::atomic<bool> stop{false};
  GptSessionControl c;
  c.stop = &stop;
  c.on_step = [&](const GptStep& s) {
    if (s.step == 5) stop = true;
  };
  const auto first = train_gpt(d.corpus, tiny(), {d / "m", ""}, c);
  ASSERT_EQ(first.status, train::SessionStatus::stopped);
  EXPECT_EQ(first.step, 5u);
  EXPECT_EQ(first.checkpoint, d / "m.ckpt");
  EXPECT_TRUE(fs::exists(first.checkpoint));
  EXPECT_FALSE(fs::exists(d.path / "m"));

  GptSessionControl again;
  again.resume = first.checkpoint;
  GptTrainOptions asked = tiny();
  asked.layers = 3;  // not used: the checkpoint's options are, and the note says so
  std::vector<ResumeNote> notes;
  again.on_resume = [&](const std::vector<ResumeNote>& n) { notes = n; };
  const auto rest = train_gpt(d.corpus, asked, {d / "m", ""}, again);
  ASSERT_EQ(rest.status, train::SessionStatus::finished);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].option, "layers");
  EXPECT_EQ(rest.options.layers, 1u);
  EXPECT_EQ(rest.resume_notes.size(), 1u);
  EXPECT_FALSE(fs::exists(first.checkpoint));  // a finished resume removes it
  EXPECT_EQ(read_all(d / "m/model.safetensors"), read_all(d / "straight/model.safetensors"));
  EXPECT_EQ(rest.evals.back().heldout_loss, straight.evals.back().heldout_loss);
  EXPECT_EQ(rest.evals.size(), straight.evals.size());
}

TEST(GptSession, StoppedBeforeTrainingWritesNothing) {
  Dir d("early");
  std::atomic<bool> stop{false};
  GptSessionControl c;
  c.stop = &stop;
  c.on_progress = [&](const train::SessionProgress& p) {
    if (p.phase == train::SessionPhase::tokenize) stop = true;
  };
  const auto r = train_gpt(d.corpus, tiny(), {d / "m", ""}, c);
  EXPECT_EQ(r.status, train::SessionStatus::stopped_before_training);
  EXPECT_FALSE(fs::exists(d.path / "m"));
  EXPECT_FALSE(fs::exists(d.path / "m.ckpt"));
}

// The option a face spells in its own way, named before any work.
std::string option_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const OptionError& e) {
    return e.option();
  }
  return "(nothing thrown)";
}

TEST(GptSession, RefusesBadOptionsAndOutputsBeforeAnyWork) {
  Dir d("refuse");
  std::ofstream(d / "file") << "x";
  EXPECT_EQ(option_of([&] { train_gpt(d.corpus, tiny(), {d / "file", ""}); }), "output");
  EXPECT_EQ(option_of([&] { train_gpt(d.corpus, tiny(), {"", ""}); }), "output");
  GptSessionControl resume;
  resume.resume = d / "m.ckpt";
  EXPECT_EQ(option_of([&] { train_gpt({}, tiny(), {d / "m", ""}, resume); }), "resume");
  GptTrainOptions bad = tiny();
  bad.tokenizer = "bytes";
  EXPECT_EQ(option_of([&] { train_gpt(d.corpus, bad, {d / "m", ""}); }), "tokenizer");
  bad = tiny();
  bad.max_words = 0;
  EXPECT_EQ(option_of([&] { train_gpt(d.corpus, bad, {d / "m", ""}); }), "max_words");
  // The corpus inside the directory it would replace.
  EXPECT_THROW(train_gpt(d.corpus, tiny(), {d.path.string(), ""}), UsageError);
  EXPECT_TRUE(fs::exists(d.corpus[0]));
}

}  // namespace test_gpt_session
