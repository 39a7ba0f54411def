#include "lumen/model/gpt_session.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <optional>

#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/model/gpt_tokenizer.hpp"
#include "lumen/model/hf_export.hpp"
#include "lumen/model/token_stream.hpp"
#include "lumen/text/tokenizer_files.hpp"

namespace lumen::model {
namespace {

namespace fs = std::filesystem;

// The model directory must be one it may replace, found before hours of training are spent on it.
void check_output_dir(const std::string& dir) {
  if (dir.empty()) throw OptionError("output", "{option} is required: the directory the model is written to");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw OptionError(
        "output",
        fmt::format("{{option}} {}: exists and is not a directory (the model is written as a directory)", dir));
  check_gpt2_destination(dir);
}

// Every file the session reads (the corpus's, the resumed checkpoint unless it is the one written, GPT-2's
// tokenizer files whichever tokenizer is used: a directory replaced there would take them) apart from the
// checkpoint it writes and the directory it replaces.
void check_apart(const train::Corpus& corpus, const std::string& resume, const std::string& ckpt,
                 const std::string& dir) {
  std::vector<std::string> inputs;
  for (const auto& f : corpus.files()) inputs.push_back(f.path);
  if (!resume.empty() && !same_file(resume, ckpt)) inputs.push_back(resume);
  if (const std::string gpt2 = text::default_gpt2_dir(); !gpt2.empty())
    for (const char* f : {"encoder.json", "vocab.bpe"}) inputs.push_back((fs::path(gpt2) / f).string());
  check_outputs_apart(inputs, {ckpt}, {dir});
}

bool stopped(const train::SessionControl& c) { return c.stop != nullptr && c.stop->load(); }

}  // namespace

GptSessionResult train_gpt(const std::vector<std::string>& corpus_paths, const GptTrainOptions& options,
                           const GptSessionOutputs& outputs, const GptSessionControl& control) {
  const std::string& resume = control.resume;
  if (resume.empty()) check_gpt_train_options(options);
  const train::Corpus corpus = train::open_session_corpus(corpus_paths, resume);
  check_output_dir(outputs.dir);
  const std::string ckpt = outputs.checkpoint.empty() ? outputs.dir + ".ckpt" : outputs.checkpoint;
  check_apart(corpus, resume, ckpt, outputs.dir);  // nothing read may be written over, before anything is

  GptSessionResult r;
  // Resuming: the checkpoint's options (its tokenizer, so that the stream is the one it was trained on); those
  // asked that differ are noted for the face to report, never silently dropped.
  r.options = resume.empty() ? options : GptTrainer::checkpoint_options(resume);
  if (!resume.empty()) {
    r.resume_notes = resume_notes(options, r.options);
    if (control.on_resume) control.on_resume(r.resume_notes);
  }
  const auto report = [&control](train::SessionPhase phase) {
    return [&control, phase](const std::string&, std::uint64_t done, std::uint64_t total) {
      if (control.on_progress) control.on_progress({phase, done, total, {}});
    };
  };
  if (r.options.tokenizer == "words") report(train::SessionPhase::vocabulary)("vocabulary", 0, corpus.bytes());
  const TrainingTokenizer tok = training_tokenizer(corpus, r.options, report(train::SessionPhase::vocabulary));
  if (stopped(control)) {
    r.status = train::SessionStatus::stopped_before_training;
    return r;
  }
  report(train::SessionPhase::tokenize)("tokenize", 0, corpus.bytes());
  const std::vector<std::int32_t> tokens = encode_corpus(corpus, *tok.tokenizer, report(train::SessionPhase::tokenize));
  if (stopped(control)) {
    r.status = train::SessionStatus::stopped_before_training;
    return r;
  }

  std::optional<GptTrainer> trainer;
  if (!resume.empty()) trainer.emplace(GptTrainer::load_checkpoint(resume, tokens));
  else trainer.emplace(tokens, tok.tokenizer->size(), options);
  r.options = trainer->options();

  train::TrainControl tc;
  tc.stop = control.stop;
  tc.checkpoint_every = control.checkpoint_every;
  tc.on_checkpoint = [&] {
    trainer->save_checkpoint(ckpt);
    if (control.on_checkpoint) control.on_checkpoint(ckpt);
  };
  const auto progress = [&control](std::uint64_t step, std::uint64_t steps, const train::TrainStatus& st,
                                   double tokens_per_second) {
    if (control.on_progress)
      control.on_progress({train::SessionPhase::training, step, steps, st, 0, tokens_per_second});
  };
  progress(trainer->step(), r.options.steps, {trainer->step(), r.options.steps}, 0);
  const auto start = std::chrono::steady_clock::now();
  const bool done = trainer->train(
      tc,
      [&](const GptStep& s) {
        progress(s.step, s.steps, {s.step, s.steps, s.loss, s.lr, 0, s.seconds}, s.tokens_per_second);
        if (control.on_step) control.on_step(s);
      },
      [&](const GptEval& e) {
        if (control.on_eval) control.on_eval(e);
      });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.shape = trainer->shape();
  r.step = trainer->step();
  r.train_tokens = trainer->train_tokens();
  r.heldout_tokens = trainer->heldout_tokens();
  r.evals = trainer->history();
  if (!done) {
    trainer->save_checkpoint(ckpt);
    r.status = train::SessionStatus::stopped;
    r.checkpoint = ckpt;
    return r;
  }
  trainer->export_hf(outputs.dir, tok.gpt2_dir, tok.words_json);
  r.output = outputs.dir;
  // The model is written: its checkpoint is no longer needed (not before: if writing failed, it holds the work).
  std::error_code ec;
  if (control.checkpoint_every > 0 || !resume.empty()) fs::remove(ckpt, ec);
  return r;
}

}  // namespace lumen::model
