#pragma once
// Counting a corpus into a vocabulary: ids sorted by descending count, ties by first occurrence in the corpus
// (so the order is deterministic and does not depend on hashing). Counts are kept (Vocab::counts), and are saved
// beside a trained table as a `word count` per line file.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/core/vocab.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::train {

struct VocabOptions {
  std::uint64_t min_count = 5;  // drop tokens seen fewer times
  std::size_t max_vocab = 0;    // keep at most this many (the most frequent); 0: no limit
  std::uint64_t end_byte = 0;   // count only words starting before this byte (0: the whole corpus)
};

struct VocabStats {
  std::uint64_t tokens = 0;       // every token read
  std::uint64_t kept_tokens = 0;  // tokens whose word is in the vocabulary
  std::uint64_t distinct = 0;     // distinct tokens before min-count / max-vocab
};

// Streams the corpus once. A progress callback, if given, is called now and then with the bytes read of the
// corpus's (stage "vocabulary").
Vocab build_vocab(const Corpus& corpus, const text::WordSplitter& tokenizer, const VocabOptions& options,
                  VocabStats* stats = nullptr, const ProgressFn& progress = {});

// `word count` per line (written atomically); read back with load_vocab_counts.
void save_vocab_counts(const std::string& path, const Vocab& vocab);
// Throws ParseError (file, line) on a malformed line or a duplicate word.
Vocab load_vocab_counts(const std::string& path);

// word2vec's subsampling rule (as fastText): a token of relative frequency f = count/total is kept with
// probability min(1, sqrt(t/f) + t/f). Returns the keep probability per id; t <= 0 keeps everything.
std::vector<float> keep_probabilities(const Vocab& vocab, double t);

}  // namespace lumen::train
