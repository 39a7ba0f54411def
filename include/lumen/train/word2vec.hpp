#pragma once
// word2vec (Mikolov et al. 2013): skip-gram and CBOW with negative sampling, as word2vec.c and fastText train
// them. Two tables: E (V,d), the input vectors that become the word table, and E_out (V,d), the output vectors
// the negatives are scored against. Hogwild: threads update both tables without locks, each over its own
// byte range of the corpus. A dynamic window (b uniform in 1..window), frequent-word subsampling, and a learning
// rate falling linearly to zero over the whole run.
//
// Randomness is keyed by (seed, thread, epoch, sentence), and the learning rate by the count of words done, so a
// single-threaded run stopped at a checkpoint and resumed computes exactly what it would have straight through.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/table.hpp"
#include "lumen/core/vocab.hpp"
#include "lumen/text/word_splitter.hpp"
#include "lumen/train/control.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::train {

enum class W2VModel { skipgram, cbow };
W2VModel parse_w2v_model(std::string_view name);  // "skipgram"/"sg", "cbow"; throws UsageError
std::string_view w2v_model_name(W2VModel m);      // "skipgram" or "cbow"

struct Word2VecOptions {
  W2VModel model = W2VModel::skipgram;
  std::size_t dim = 100;
  std::size_t window = 5;
  std::size_t negative = 5;
  std::size_t epochs = 5;
  double lr = 0.0;       // 0: the model's default (skip-gram 0.025, CBOW 0.05, as word2vec)
  double sample = 1e-4;  // subsampling threshold t (fastText's default); 0 keeps every token
  std::uint64_t seed = 1;
  std::size_t threads = 0;  // 0: lumen::default_threads()
  text::WordSplitOptions tokenizer;
};

class Word2Vec {
 public:
  // A fresh model over `corpus` (kept by reference: it must outlive this). Throws UsageError for bad options,
  // InputError for a vocabulary of fewer than two words.
  Word2Vec(const Corpus& corpus, Vocab vocab, const Word2VecOptions& options);
  ~Word2Vec();
  Word2Vec(Word2Vec&&) noexcept;
  Word2Vec& operator=(Word2Vec&&) noexcept;

  // Trains until done (returns true) or stopped by control.stop (returns false, at a resumable point).
  bool train(const TrainControl& control = {});
  bool finished() const;

  // Checkpoint: options, vocabulary, corpus file list, both tables and every thread's position.
  void save_checkpoint(const std::string& path) const;
  // Resumes a checkpoint over the same corpus (file sizes are checked). The thread count is the checkpoint's:
  // the byte ranges the threads own depend on it.
  static Word2Vec load_checkpoint(const std::string& path, const Corpus& corpus);

  const Vocab& vocab() const;
  const Word2VecOptions& options() const;
  const Matrix& input() const;   // E (V,d)
  const Matrix& output() const;  // E_out (V,d)
  Table table() const;           // the vocabulary and a copy of E
  TrainStatus status() const;

  // The initial input table: uniform in [-1/d, 1/d) (fastText's), drawn row by row from Rng(seed).
  static Matrix init_input(std::size_t V, std::size_t d, std::uint64_t seed);

 private:
  struct State;
  explicit Word2Vec(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

}  // namespace lumen::train
