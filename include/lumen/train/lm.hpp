#pragma once
// A neural language model in the manner of Bengio et al. (2003): the embedding table E trained only to make
// next-token prediction less wrong.
//
//   ids (B,n)  the n previous tokens           x (B,n*d) = concat E[ids]         (nn::Embedding)
//   a (B,H)    = tanh(x W1^T + b1)              W1 (H,n*d)
//   z (B,d)    = a P^T   (only if H != d)       P (d,H): brings the hidden width to d so the head can be tied
//   logits (B,V) = z W^T + b                    W = E (tied, nn::OutputHead::tied) or its own (V,d) (untied)
//   loss = softmax cross-entropy (nn::softmax_cross_entropy)
//
// The projection P is there for tied and untied models alike, so that --tie / --no-tie at equal settings differ
// in nothing but the tying. Vocabulary: id 0 "</s>" (ends every sentence, and pads the context at its start),
// id 1 "<unk>" (words below --min-count or past --max-vocab), then the words by descending count.
//
// The last `holdout` fraction of the corpus (by bytes) is never trained on; held-out perplexity
// exp(mean cross-entropy) is measured on it after every epoch. Examples are shuffled in windows of
// `shuffle_window` examples (whole sentences), read as a stream; randomness is keyed by (seed, epoch, window),
// so a checkpoint taken between batches resumes bit for bit.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/text/word_splitter.hpp"
#include "lumen/train/control.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/optimizer.hpp"

namespace lumen::train {

struct LmOptions {
  std::size_t context = 3;   // n previous tokens
  std::size_t dim = 64;      // d
  std::size_t hidden = 128;  // H
  bool tie = true;
  float init_std = 0.05f;     // E (and an untied W) ~ N(0, init_std^2); W1, P ~ N(0, 1/fan_in)
  bool scale_sqrt_d = false;  // multiply looked-up rows by sqrt(d) (the transformer's convention)
  OptimizerKind optimizer = OptimizerKind::adam;
  float lr = 0.0f;  // 0: 1e-3 for Adam, 0.1 for SGD; decays linearly to 0 over the run
  std::size_t batch = 64;
  std::size_t epochs = 1;
  double holdout = 0.05;               // fraction of the corpus bytes (its end) held out
  std::uint64_t max_train_tokens = 0;  // stop each epoch after this many training tokens (0: all)
  std::size_t shuffle_window = 65536;
  std::uint64_t seed = 1;
  std::size_t threads = 0;  // BLAS threads (0: lumen::default_threads())
  text::WordSplitOptions tokenizer;
};

struct LmEpoch {
  std::size_t epoch = 0;  // 1-based
  double train_loss = 0;  // mean cross-entropy over the epoch's batches (nats)
  double heldout_loss = 0;
  double heldout_perplexity = 0;
  std::uint64_t heldout_tokens = 0;
  double seconds = 0;
};

class LanguageModel {
 public:
  // `vocab` is the words' vocabulary (from build_vocab over the training part); "</s>" and "<unk>" are put
  // in front. Throws UsageError for bad options.
  LanguageModel(const Corpus& corpus, const Vocab& words, const LmOptions& options);
  ~LanguageModel();
  LanguageModel(LanguageModel&&) noexcept;
  LanguageModel& operator=(LanguageModel&&) noexcept;

  // The training part ends here (bytes): build the vocabulary over [0, train_end()).
  static std::uint64_t train_end(const Corpus& corpus, double holdout);

  // Trains the remaining epochs; on_epoch is called after each with its held-out figures.
  // Returns false if stopped by control.stop (at a resumable point between batches).
  bool train(const TrainControl& control = {}, const std::function<void(const LmEpoch&)>& on_epoch = {});
  bool finished() const;
  // Mean cross-entropy and perplexity on the held-out slice with the current weights.
  LmEpoch evaluate() const;

  void save_checkpoint(const std::string& path) const;
  static LanguageModel load_checkpoint(const std::string& path, const Corpus& corpus);

  const Vocab& vocab() const;
  const LmOptions& options() const;
  const std::vector<LmEpoch>& history() const;
  Table input_table() const;   // E (V,d)
  Table output_table() const;  // untied W (V,d); tied: the same as input_table()
  TrainStatus status() const;

 private:
  struct State;
  explicit LanguageModel(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

}  // namespace lumen::train
