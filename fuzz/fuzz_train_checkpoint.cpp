// libFuzzer target: `lumen train --resume CHECKPOINT`, the trainers' checkpoint files. A valid checkpoint of each
// trainer (word2vec, the language model) is written once at start-up, for a small corpus; each input damages
// one: byte 0 picks the trainer, bytes 1-2 (little-endian) cut that many bytes off its end (modulo its size + 1), and
// each further 3 bytes (offset: 2 bytes, value: 1) overwrite one byte. Loading must succeed or throw
// lumen::InputError (a ParseError with the offset, or the corpus mismatch); a checkpoint that loads must report
// a status within its own bounds and resume training.
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_damage.hpp"
#include "lumen/core/error.hpp"
#include "lumen/text/word_splitter.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/lm.hpp"
#include "lumen/train/vocabulary.hpp"
#include "lumen/train/word2vec.hpp"

namespace {

namespace fs = std::filesystem;
using namespace lumen::train;

struct World {
  fs::path dir = fs::temp_directory_path() / ("lumen-fuzz-checkpoint-" + std::to_string(::getpid()));
  Corpus corpus;
  std::string w2v, lm;  // the valid checkpoints' bytes

  World() : corpus(make_corpus(dir)) {
    const lumen::Vocab words = build_vocab(corpus, lumen::text::WordSplitter(), {.min_count = 1});
    Word2VecOptions wo;
    wo.dim = 4;
    wo.epochs = 1;
    wo.threads = 1;
    Word2Vec(corpus, words, wo).save_checkpoint((dir / "w.ckpt").string());
    const LmOptions lo{.context = 2, .dim = 4, .hidden = 5, .batch = 4, .epochs = 1};
    const lumen::Vocab lm_words = build_vocab(corpus, lumen::text::WordSplitter(),
                                              {.min_count = 1, .end_byte = LanguageModel::train_end(corpus, 0.1)});
    LanguageModel(corpus, lm_words, lo).save_checkpoint((dir / "l.ckpt").string());
    w2v = slurp((dir / "w.ckpt").string());
    lm = slurp((dir / "l.ckpt").string());
  }
  static Corpus make_corpus(const fs::path& dir) {
    fs::create_directories(dir);
    std::ofstream(dir / "c.txt") << "the cat sat on the mat\nthe dog sat on the log\na cat and a dog\n"
                                    "the king and the queen\na man and a woman\n";
    return Corpus::open({(dir / "c.txt").string()});
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World w;  // built on the first input
  if (size < 3) return 0;
  const bool lm = (data[0] & 1) != 0;
  const std::string path = (w.dir / "fuzz.ckpt").string();
  write_damaged(path, lm ? w.lm : w.w2v, data + 1, size - 1);
  // Resuming runs a little training from the loaded state (stopped after about 200 words), so that a checkpoint
  // that loads but holds positions or tables training cannot use is caught by the sanitizers too.
  std::atomic<bool> stop{false};
  TrainControl ctl;
  ctl.stop = &stop;
  ctl.checkpoint_every = 200;
  ctl.on_checkpoint = [&stop] { stop = true; };
  try {
    if (lm) {
      LanguageModel m = LanguageModel::load_checkpoint(path, w.corpus);
      if (m.vocab().size() < 2 || m.status().words_done > m.status().words_total) std::abort();
      m.train(ctl);
    } else {
      Word2Vec m = Word2Vec::load_checkpoint(path, w.corpus);
      const TrainStatus s = m.status();
      if (s.words_done > s.words_total) {
        std::fprintf(stderr, "loaded a checkpoint with %llu of %llu words done\n",
                     static_cast<unsigned long long>(s.words_done), static_cast<unsigned long long>(s.words_total));
        std::abort();
      }
      m.train(ctl);
    }
  } catch (const lumen::InputError&) {
  }
  return 0;
}
