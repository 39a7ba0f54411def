#pragma once
// A GPT training session: what `lumen train gpt` and Python's lumen.train.gpt do around a GptTrainer, in one place,
// as train/session.hpp does for word2vec and the MLP language model (its control, phases and statuses). Given the
// corpus, the options and where the model goes, a session chooses the tokenizer (gpt_tokenizer.hpp), encodes the
// corpus, trains fresh or resumes a checkpoint, writes the checkpoint when stopped, and writes the model directory
// as a whole (hf_export.hpp) when finished.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/model/gpt_trainer.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/train/session.hpp"

namespace lumen::model {

struct GptSessionOutputs {
  std::string dir;         // the Hugging Face GPT-2 directory written when finished (option name: "output")
  std::string checkpoint;  // "": DIR.ckpt
};

// train::SessionControl's stop flag, resume, checkpoint_every (steps), on_checkpoint and on_progress (phases
// vocabulary and tokenize: bytes of the corpus; training: steps, with the step's loss, lr and tokens per second in
// `status`), plus what only a GPT has.
struct GptSessionControl : train::SessionControl {
  std::function<void(const GptStep&)> on_step;  // after every step
  std::function<void(const GptEval&)> on_eval;  // after every held-out evaluation
  // A resumed session, before its work: the options asked that differ from the checkpoint's (as in the result).
  std::function<void(const std::vector<ResumeNote>&)> on_resume;
};

struct GptSessionResult {
  train::SessionStatus status = train::SessionStatus::finished;
  std::string output;       // the directory written ("" unless finished)
  std::string checkpoint;   // written when stopped ("" when not)
  GptTrainOptions options;  // as used (a resumed session's: the checkpoint's)
  // Options asked of a resumed session that differ from the checkpoint's, which it keeps. A face reports those its
  // user gave (the others are its defaults).
  std::vector<ResumeNote> resume_notes;
  nn::ModelShape shape;
  std::uint64_t step = 0;  // steps done, over every run of the model
  std::uint64_t train_tokens = 0, heldout_tokens = 0;
  std::vector<GptEval> evals;  // every held-out evaluation, resumed ones included
  double seconds = 0;          // wall time of this session's training
};

// Throws OptionError / UsageError for bad options and outputs before any work (the option names of
// GptTrainOptions, "output", "resume"), InputError for a corpus too short, a checkpoint that is not this corpus's
// or GPT-2's files missing, IoError if something cannot be read or written. Nothing read is written over.
GptSessionResult train_gpt(const std::vector<std::string>& corpus, const GptTrainOptions& options,
                           const GptSessionOutputs& outputs, const GptSessionControl& control = {});

}  // namespace lumen::model
