#pragma once
// A training session: everything `lumen train`, Python's lumen.train and any other face do around a trainer,
// in one place. Given the corpus, the trainer's options, where the outputs go and how to steer it, a session
// counts the vocabulary (or resumes a checkpoint), trains, writes a checkpoint when stopped (Ctrl-C: the caller
// sets the stop flag), writes its outputs atomically when finished, and says what it did in a result.
//
// Faces keep only their own parts: parsing options, a signal handler that sets the stop flag, a progress bar fed
// by on_progress, and printing the result (or its JSON: lumen/train/result_json.hpp).
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"
#include "lumen/train/control.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/lm.hpp"
#include "lumen/train/word2vec.hpp"

namespace lumen::train {

// The corpus, and how a fresh session counts its vocabulary (a resumed one takes the checkpoint's).
struct SessionCorpus {
  std::vector<std::string> paths;  // text files or directories (option name: "corpus")
  std::uint64_t min_count = 5;
  std::size_t max_vocab = 0;  // 0: every word
};

// Where the outputs go. With `table` empty nothing is written (the trained tables come back in the result),
// and a checkpoint is written only where `checkpoint` names one.
struct SessionOutputs {
  std::string table;       // E
  std::string format;      // a format name (io::parse_format); "": by the table's extension, else word2vec text
  std::string head;        // lm, untied: W ("": TABLE.out, in the table's format)
  std::string vocab;       // `word count` lines ("": TABLE.vocab)
  std::string checkpoint;  // "": TABLE.ckpt
};

// tokenize: a GPT session's encoding of the corpus into ids (model/gpt_session.hpp).
enum class SessionPhase { vocabulary, tokenize, training };
const char* phase_name(SessionPhase phase);  // "vocabulary", "tokenize", "training"

struct SessionProgress {
  SessionPhase phase = SessionPhase::vocabulary;
  std::uint64_t done = 0, total = 0;  // bytes (vocabulary, tokenize), words, tokens or steps (training)
  TrainStatus status;                 // training: the trainer's report
  std::size_t epochs = 0;             // training: the model's epochs (a resumed one's: the checkpoint's)
  double tokens_per_second = 0;       // training a GPT: the last step's
};

struct SessionControl {
  const std::atomic<bool>* stop = nullptr;  // set: the session stops at a resumable point and checkpoints
  std::string resume;                       // a checkpoint to continue ("": a fresh run)
  std::uint64_t checkpoint_every = 0;       // words (tokens) between checkpoints; 0: only when stopped
  std::function<void(const SessionProgress&)> on_progress;
  std::function<void(const LmEpoch&)> on_epoch;           // lm: after every epoch, with its held-out figures
  std::function<void(const std::string&)> on_checkpoint;  // after every periodic checkpoint, with its path
};

enum class SessionStatus {
  finished,                 // outputs written
  stopped,                  // stopped while training: the checkpoint is written (if any path was given)
  stopped_before_training,  // stopped while counting the vocabulary (or tokenizing): nothing written
};

struct SessionResult {
  SessionStatus status = SessionStatus::finished;
  std::string checkpoint;                         // written when stopped ("" when none)
  std::vector<std::string> written;               // every output file written, in order
  std::string table_path, head_path, vocab_path;  // as written ("" when not)
  io::Format format = io::Format::word2vec_text;
  Table table;                       // E
  Table head;                        // lm, untied: W (empty otherwise)
  std::uint64_t words_done = 0;      // words (tokens) done, over every run of the model
  std::uint64_t words_this_run = 0;  // ... by this session
  std::uint64_t corpus_tokens = 0;   // tokens read while counting the vocabulary (0 when resumed)
  double seconds = 0;                // wall time of this session's training
  double loss = 0;                   // the last loss reported
};

struct Word2VecSessionResult : SessionResult {
  Word2VecOptions options;  // as used (a resumed session's: the checkpoint's)
  double words_per_sec_per_thread = 0;
};

struct LmSessionResult : SessionResult {
  LmOptions options;
  std::vector<LmEpoch> epochs;  // every epoch's held-out figures, resumed ones included
};

// The corpus of a session: OptionError ("resume") if a resumed one is given none, UsageError if a fresh one is.
Corpus open_session_corpus(const std::vector<std::string>& paths, const std::string& resume);

// The output format: `name` if given, else by the path's extension, else word2vec text.
io::Format session_format(const std::string& name, const std::string& path);

// Throw OptionError / UsageError for bad options (before any work), InputError / IoError for a bad corpus or
// checkpoint and for outputs that cannot be written; every output is written atomically (lumen::AtomicFile).
Word2VecSessionResult train_word2vec(const SessionCorpus& corpus, const Word2VecOptions& options,
                                     const SessionOutputs& outputs, const SessionControl& control = {});
LmSessionResult train_lm(const SessionCorpus& corpus, const LmOptions& options, const SessionOutputs& outputs,
                         const SessionControl& control = {});

}  // namespace lumen::train
