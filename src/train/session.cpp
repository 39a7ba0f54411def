#include "lumen/train/session.hpp"

#include <filesystem>
#include <optional>
#include <utility>

#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/io/write.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/vocabulary.hpp"

namespace lumen::train {

const char* phase_name(SessionPhase phase) {
  switch (phase) {
    case SessionPhase::vocabulary: return "vocabulary";
    case SessionPhase::tokenize: return "tokenize";
    case SessionPhase::training: return "training";
  }
  return "training";
}

Corpus open_session_corpus(const std::vector<std::string>& paths, const std::string& resume) {
  if (paths.empty()) {
    if (!resume.empty()) throw OptionError("resume", "{option} needs the corpus it was trained on");
    throw UsageError("no corpus given (text files or directories)");
  }
  return Corpus::open(paths);
}

io::Format session_format(const std::string& name, const std::string& path) {
  if (!name.empty()) return io::parse_format(name);
  try {
    return io::format_from_path(path);
  } catch (const UsageError&) {
    return io::Format::word2vec_text;
  }
}

namespace {

// Where a session writes, resolved once before any work.
struct Plan {
  std::string table, head, vocab, checkpoint;  // head: where an untied lm's W goes
  io::Format format = io::Format::word2vec_text, head_format = io::Format::word2vec_text;
};

// Where an output cannot go is found before hours of training are spent on it: its folder must exist, and it
// must not be a folder itself.
void check_folder(const std::string& path) {
  if (path.empty() || path == "-") return;
  const auto parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw IoError(path + ": cannot write here: the folder " + parent.string() + " does not exist");
  if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a folder, not a file to write");
}

Plan plan_outputs(const SessionOutputs& out) {
  Plan p;
  p.checkpoint = !out.checkpoint.empty() ? out.checkpoint : out.table.empty() ? "" : out.table + ".ckpt";
  check_folder(p.checkpoint);
  if (out.table.empty()) return p;
  p.table = out.table;
  p.format = session_format(out.format, out.table);
  io::check_destination(p.table, p.format);
  // The head goes beside the table in its format, unless given a path of its own.
  p.head = out.head.empty() ? out.table + ".out" : out.head;
  p.head_format = p.head == out.table + ".out" ? p.format : session_format(out.format, p.head);
  if (!out.head.empty()) io::check_destination(p.head, p.head_format);
  p.vocab = out.vocab.empty() ? out.table + ".vocab" : out.vocab;
  for (const auto* path : {&p.table, &p.head, &p.vocab}) check_folder(*path);
  return p;
}

// Counts the vocabulary over [0, end_byte) (0: the whole corpus), reporting the bytes read.
Vocab count_vocab(const Corpus& corpus, const SessionCorpus& c, const text::WordSplitOptions& tokenizer,
                  std::uint64_t end_byte, VocabStats* stats, const SessionControl& control) {
  const std::uint64_t total = end_byte > 0 ? end_byte : corpus.bytes();
  auto report = [&](const std::string&, std::uint64_t bytes, std::uint64_t) {
    if (control.on_progress) control.on_progress({SessionPhase::vocabulary, bytes, total, {}});
  };
  report("vocabulary", 0, total);
  return build_vocab(corpus, text::WordSplitter(tokenizer), {c.min_count, c.max_vocab, end_byte}, stats, report);
}

bool stopped(const SessionControl& control) { return control.stop != nullptr && control.stop->load(); }

// Where the part of the corpus the vocabulary is counted over ends (0: the whole corpus).
std::uint64_t vocab_end(const Corpus&, const Word2VecOptions&) { return 0; }
std::uint64_t vocab_end(const Corpus& corpus, const LmOptions& o) {
  return LanguageModel::train_end(corpus, o.holdout);
}

// Writes the table and the counts; then a finished run's checkpoint is no longer needed (not before: if an output
// cannot be written, the checkpoint still holds the training).
void write_outputs(const Plan& plan, const Vocab& vocab, const SessionControl& control, SessionResult& r) {
  r.format = plan.format;
  if (!plan.table.empty()) {
    io::write_table(r.table, plan.table, plan.format);
    r.table_path = plan.table;
    r.written.push_back(plan.table);
    if (r.head.V() > 0) {
      io::write_table(r.head, plan.head, plan.head_format);
      r.head_path = plan.head;
      r.written.push_back(plan.head);
    }
    save_vocab_counts(plan.vocab, vocab);
    r.vocab_path = plan.vocab;
    r.written.push_back(plan.vocab);
  }
  if (!plan.checkpoint.empty() && (control.checkpoint_every > 0 || !control.resume.empty()))
    std::filesystem::remove(plan.checkpoint);
}

// Nothing the session reads (the corpus's files, a checkpoint resumed from, unless it is the one it writes) may be
// one of its outputs, nor two outputs one file. `head`: the session may write an untied head (lm).
void check_apart(const Plan& plan, const Corpus& corpus, const SessionControl& control, bool head) {
  std::vector<std::string> inputs, outputs;
  for (const auto& f : corpus.files()) inputs.push_back(f.path);
  if (!control.resume.empty() && !(!plan.checkpoint.empty() && same_file(control.resume, plan.checkpoint)))
    inputs.push_back(control.resume);
  // A table's companion file (the .npy's vocabulary, the projector's metadata): a trained table's rows are words.
  const auto add_table = [&outputs](const std::string& path, io::Format format) {
    outputs.push_back(path);
    if (format == io::Format::npy) outputs.push_back(io::npy_vocab_path(path));
    if (format == io::Format::projector_tsv) outputs.push_back(io::projector_metadata_path(path));
  };
  if (!plan.table.empty()) {
    add_table(plan.table, plan.format);
    if (head) add_table(plan.head, plan.head_format);
    outputs.push_back(plan.vocab);
  }
  if (!plan.checkpoint.empty()) outputs.push_back(plan.checkpoint);
  check_outputs_apart(inputs, outputs);
}
bool writes_head(const Word2VecOptions&) { return false; }
bool writes_head(const LmOptions&) { return true; }  // untied, or a resumed untied one: W goes beside E

// A session of either trainer: the model (the checkpoint's, or fresh over the counted vocabulary), trained by
// train(model, control) with the session's checkpoints and progress, checkpointed when stopped; finish(model,
// result, done) fills in the trainer's own results (and the tables when done) before the outputs are written.
template <class Model, class Result, class Options, class Train, class Finish>
Result run_session(const SessionCorpus& c, const Options& options, const SessionOutputs& outputs,
                   const SessionControl& control, Train train, Finish finish) {
  const Plan plan = plan_outputs(outputs);
  const Corpus corpus = open_session_corpus(c.paths, control.resume);
  check_apart(plan, corpus, control, writes_head(options));
  Result r;
  std::optional<Model> model;
  if (!control.resume.empty()) {
    model.emplace(Model::load_checkpoint(control.resume, corpus));
  } else {
    VocabStats stats;
    Vocab vocab = count_vocab(corpus, c, options.tokenizer, vocab_end(corpus, options), &stats, control);
    r.corpus_tokens = stats.tokens;
    if (stopped(control)) {
      r.status = SessionStatus::stopped_before_training;
      return r;
    }
    model.emplace(corpus, std::move(vocab), options);
  }
  r.options = model->options();

  const TrainStatus start = model->status();
  TrainControl tc;
  tc.stop = control.stop;
  if (!plan.checkpoint.empty()) {
    tc.checkpoint_every = control.checkpoint_every;
    tc.on_checkpoint = [&model, &plan, &control] {
      model->save_checkpoint(plan.checkpoint);
      if (control.on_checkpoint) control.on_checkpoint(plan.checkpoint);
    };
  }
  tc.on_progress = [&r, &control](const TrainStatus& st) {
    if (st.loss > 0) r.loss = st.loss;
    r.seconds = st.seconds;
    if (control.on_progress)
      control.on_progress({SessionPhase::training, st.words_done, st.words_total, st, r.options.epochs});
  };
  tc.on_progress(start);
  const bool done = train(*model, tc);
  r.words_done = model->status().words_done;
  r.words_this_run = r.words_done - start.words_done;
  finish(*model, r, done);
  if (done) {
    write_outputs(plan, model->vocab(), control, r);
  } else {
    r.status = SessionStatus::stopped;
    if (!plan.checkpoint.empty()) {
      model->save_checkpoint(plan.checkpoint);
      r.checkpoint = plan.checkpoint;
    }
  }
  return r;
}

}  // namespace

Word2VecSessionResult train_word2vec(const SessionCorpus& c, const Word2VecOptions& options,
                                     const SessionOutputs& outputs, const SessionControl& control) {
  return run_session<Word2Vec, Word2VecSessionResult>(
      c, options, outputs, control, [](Word2Vec& m, const TrainControl& tc) { return m.train(tc); },
      [](const Word2Vec& m, Word2VecSessionResult& r, bool done) {
        if (!done) return;
        r.table = m.table();
        const double per_thread = r.seconds * static_cast<double>(r.options.threads);
        r.words_per_sec_per_thread = per_thread > 0 ? static_cast<double>(r.words_this_run) / per_thread : 0.0;
      });
}

LmSessionResult train_lm(const SessionCorpus& c, const LmOptions& options, const SessionOutputs& outputs,
                         const SessionControl& control) {
  return run_session<LanguageModel, LmSessionResult>(
      c, options, outputs, control,
      [&control](LanguageModel& m, const TrainControl& tc) { return m.train(tc, control.on_epoch); },
      [](const LanguageModel& m, LmSessionResult& r, bool done) {
        r.epochs = m.history();
        if (!done) return;
        r.table = m.input_table();
        if (!r.options.tie) r.head = m.output_table();
      });
}

}  // namespace lumen::train
