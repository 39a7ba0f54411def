#pragma once
// Training a small GPT-2 from scratch on a token stream, as the chapter's recipe:
//   init     GPT-2's: every matrix and wte ~ N(0, 0.02^2), wpe ~ N(0, 0.01^2), biases 0, norms' weights 1, and the
//            two projections into the residual stream (attn.c_proj, mlp.c_proj) ~ N(0, (0.02/sqrt(2N))^2)
//   data     the last `holdout` fraction of the stream is held out; each step trains on B windows of T+1 tokens
//            (inputs, next-token targets) at offsets drawn by an Rng keyed by (seed, step), so a run stopped after
//            step k and resumed computes what a straight run would have, bit for bit
//   update   AdamW with decoupled weight decay on the matrices only (not norms, biases, wte, wpe), linear warm-up
//            then cosine decay to min_lr, the gradient clipped to a global norm
//   eval     every eval_every steps and at the end: mean cross-entropy and perplexity over fixed held-out windows
// The stop flag of TrainControl ends train() between steps (returns false); save_checkpoint then writes everything
// a resume needs (options, the stream's identity, step, weights, AdamW's moments).
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "lumen/model/schedule.hpp"
#include "lumen/model/weights.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/train/control.hpp"

namespace lumen::model {

struct GptTrainOptions {
  std::size_t layers = 4, d_model = 128, heads = 4, context = 128;
  bool tie = true;
  std::size_t steps = 1000, batch = 8;
  float lr = 1e-3f;              // peak learning rate
  float min_lr = 1e-4f;          // at the end of the cosine
  std::size_t warmup = 0;        // steps of linear warm-up (0: steps / 20, at least 1)
  float weight_decay = 0.1f;     // AdamW's, on matrices only
  float grad_clip = 1.0f;        // global norm (0: none)
  double holdout = 0.05;         // fraction of the token stream held out (its end)
  std::size_t eval_every = 100;  // steps between held-out evaluations (0: at the end only)
  std::size_t eval_batches = 4;  // B x T held-out windows each
  std::uint64_t seed = 1;
  std::size_t threads = 0;  // 0: lumen::default_threads()
  // Not used by the trainer (it takes ids): recorded in the checkpoint, so a resume rebuilds the same stream.
  std::string tokenizer = "gpt2";  // "gpt2" or "words"
  std::size_t max_words = 8192;    // words: the vocabulary's words beside the 256 bytes
};

struct GptEval {
  std::uint64_t step = 0;   // steps done when measured
  double train_loss = 0;    // mean over the steps since the previous evaluation
  double heldout_loss = 0;  // mean cross-entropy (nats) over the held-out windows
  double heldout_perplexity = 0;
  double seconds = 0;
};

// The held-out loss over only the positions whose target is one of a set of tokens.
struct GptSubsetLoss {
  double loss = std::numeric_limits<double>::quiet_NaN();  // mean cross-entropy (nats) there; NaN for none
  std::uint64_t targets = 0;                               // positions whose target is in the set
  std::uint64_t positions = 0;                             // every held-out position evaluated
};

struct GptStep {
  std::uint64_t step = 0, steps = 0;  // steps done, of all
  double loss = 0, grad_norm = 0;
  float lr = 0;
  double seconds = 0;  // of this train() call
  double tokens_per_second = 0;
};

class GptTrainer {
 public:
  // tokens: the whole stream (ids in [0, V)); it must outlive the trainer. Throws OptionError for an option out of
  // range (in these option names: layers, d_model, heads, context, steps, batch, lr, ...) and InputError for an id
  // outside [0, V) or a stream too short for a window of context + 1 tokens in the training or held-out part.
  GptTrainer(const std::vector<std::int32_t>& tokens, std::size_t V, const GptTrainOptions& options);
  ~GptTrainer();
  GptTrainer(GptTrainer&&) noexcept;
  GptTrainer& operator=(GptTrainer&&) noexcept;

  // Trains the remaining steps. on_step after every step, on_eval after each evaluation; control.stop ends it
  // between steps (returns false), control.on_checkpoint every control.checkpoint_every steps.
  bool train(const train::TrainControl& control = {}, const std::function<void(const GptStep&)>& on_step = {},
             const std::function<void(const GptEval&)>& on_eval = {});
  bool finished() const;
  GptEval evaluate() const;  // held-out loss with the current weights (train_loss 0)
  // The same windows as evaluate(), the loss averaged over the positions whose target t has targets[t] (one flag per
  // token of the vocabulary; InputError otherwise).
  GptSubsetLoss heldout_loss_where(const std::vector<bool>& targets) const;

  void save_checkpoint(const std::string& path) const;
  // Throws ParseError for a foreign or damaged file, InputError if `tokens` is not the stream it was trained on.
  static GptTrainer load_checkpoint(const std::string& path, const std::vector<std::int32_t>& tokens);
  // The options a checkpoint was written with (to rebuild its token stream before load_checkpoint).
  static GptTrainOptions checkpoint_options(const std::string& path);

  // Writes a Hugging Face GPT-2 directory (see hf_export.hpp).
  void export_hf(const std::string& dir, const std::string& gpt2_tokenizer_dir,
                 const std::string& tokenizer_json = "") const;

  const nn::ModelShape& shape() const;
  const Weights& weights() const;
  const GptTrainOptions& options() const;
  std::uint64_t step() const;
  const std::vector<GptEval>& history() const;
  std::uint64_t train_tokens() const;  // of the stream
  std::uint64_t heldout_tokens() const;

 private:
  struct State;
  explicit GptTrainer(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

// An option asked of a resumed run that it does not use: a resumed run keeps the options its checkpoint was made
// with (the model's shape, the schedule, the tokenizer), whatever it is asked.
struct ResumeNote {
  std::string option;       // as GptTrainOptions names it: "layers", "d_model", "tie", ...
  std::string asked, kept;  // the values, as text ("3", "2"; "untied", "tied")
  // "{spelled} is 3 here, but the checkpoint was made with 2: ..." with the option spelled as a face spells it.
  std::string text_for(const std::string& spelled) const;
};

// The options whose value in `asked` differs from the checkpoint's `kept` (every option a checkpoint records, in
// GptTrainOptions' order). A face reports those its user set: the others are its defaults.
std::vector<ResumeNote> resume_notes(const GptTrainOptions& asked, const GptTrainOptions& kept);

// Throws OptionError (in the option names above) for an option out of range: what the trainer checks first.
void check_gpt_train_options(const GptTrainOptions& options);

// GPT-2's initialisation (see above) of a model of shape s, from seed.
Weights gpt2_init(const nn::ModelShape& s, std::uint64_t seed);

}  // namespace lumen::model
