#pragma once
// `lumen train gpt --tokenizer words`: a word-level vocabulary made from the corpus, written as a byte-level BPE
// tokenizer.json that every byte-level loader reads. The corpus is split by GPT-2's pre-tokenizer regex into pieces
// (" cat", "The", ","); the `max_words` most frequent pieces of two or more bytes become tokens of their own, after
// the 256 byte tokens, and <|endoftext|> comes last. "ignore_merges": a piece that is a token is that token; any
// other piece falls apart into its bytes (the only merges are those that spell the two-byte words), so every text
// encodes, and the training stream is encoded by the very tokenizer written beside the model.
#include <cstdint>
#include <functional>
#include <string>

#include "lumen/core/progress.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::model {

// The tokenizer.json text. Deterministic for a corpus (ties in count broken by the bytes). progress(bytes done,
// total). Throws IoError if a file cannot be read, OptionError ("max_words") for max_words 0 or over 2^20.
std::string word_tokenizer_json(const train::Corpus& corpus, std::size_t max_words, const ProgressFn& progress = {});

}  // namespace lumen::model
