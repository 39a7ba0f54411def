#pragma once
// A Hugging Face tokenizer.json for byte-level BPE (GPT-2's pre-tokenizer and decoder): the one document lumen
// writes, for a GPT-2 export (model/hf_export) and for a GPT trained on the corpus's words (model/word_tokenizer).
// load_tokenizer_json reads it back.
#include <cstdint>
#include <nlohmann/json.hpp>

namespace lumen::text {

struct ByteLevelBpeJson {
  nlohmann::json vocab;         // {"token": id, ...}, byte-level spelled
  nlohmann::json merges;        // ["a b", ...]
  std::int64_t eot = -1;        // <|endoftext|>'s id, added as a special token; -1: none
  bool post_processor = false;  // GPT-2's ByteLevel post-processor (HF's own GPT-2 files have one)
  bool ignore_merges = false;   // a whole-word vocabulary: a word in it is one token, merges or not
};

nlohmann::json byte_level_bpe_json(const ByteLevelBpeJson& spec);

}  // namespace lumen::text
