#pragma once
// A corpus as one stream of token ids for training a GPT: each file's text encoded by a byte-level BPE tokenizer
// (its added tokens read as ordinary text), the files joined by <|endoftext|> when the tokenizer has it.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/text/tokenizer.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::model {

// progress(bytes done, bytes total) as it goes. Throws IoError if a file cannot be read.
std::vector<std::int32_t> encode_corpus(const train::Corpus& corpus, const text::Tokenizer& tokenizer,
                                        const ProgressFn& progress = {});

// The rare tokens of a stream (its training part): rank the tokens that occur in it by count, and take those whose
// count is at most the count at the bottom `fraction` of them (ties at the cut all come in). Tokens that never occur
// are not rare but absent: nothing was learned about them from either side.
struct RareTokens {
  std::vector<bool> mask;       // (V) true for a rare token
  std::size_t rare = 0;         // tokens marked
  std::size_t seen = 0;         // distinct tokens in the stream
  std::uint64_t max_count = 0;  // the count at the cut: a rare token occurs at most this often
};
// InputError for an id outside [0, V), a fraction outside (0, 1] or an empty stream.
RareTokens rare_tokens(std::span<const std::int32_t> stream, std::size_t V, double fraction = 0.1);

}  // namespace lumen::model
