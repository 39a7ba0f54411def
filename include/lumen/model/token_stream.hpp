#pragma once
// A corpus as one stream of token ids for training a GPT: each file's text encoded by a byte-level BPE tokenizer
// (its added tokens read as ordinary text), the files joined by <|endoftext|> when the tokenizer has it.
#include <cstdint>
#include <functional>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/text/tokenizer.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::model {

// progress(bytes done, bytes total) as it goes. Throws IoError if a file cannot be read.
std::vector<std::int32_t> encode_corpus(const train::Corpus& corpus, const text::Tokenizer& tokenizer,
                                        const ProgressFn& progress = {});

}  // namespace lumen::model
