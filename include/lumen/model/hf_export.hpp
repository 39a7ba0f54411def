#pragma once
// Writing a trained GPT-2-shaped model as a Hugging Face GPT-2 directory, the layout GPT2LMHeadModel.from_pretrained
// and lumen's own loaders read:
//   config.json        model_type gpt2, n_embd, n_layer, n_head, n_positions, n_inner, vocab_size,
//                      tie_word_embeddings, activation_function gelu_new
//   model.safetensors  F32, GPT-2's names ("transformer.wte.weight", "transformer.h.0.attn.c_attn.weight", ...)
//                      with Conv1D's (in, out) layout; "lm_head.weight" (V, C) only when untied
//   the tokenizer      GPT-2's encoder.json + vocab.bpe (lumen), vocab.json + merges.txt (transformers) and a
//                      tokenizer.json made from them (lumen's tables label the wte rows by it)
// Every file goes through AtomicFile; config.json is written last, so a directory with a config.json is whole.
#include <string>

#include "lumen/model/weights.hpp"
#include "lumen/nn/params.hpp"

namespace lumen::model {

// The config.json text of a GPT-2 of shape s (GPT-2 architecture; kv_heads == heads).
std::string gpt2_config_json(const nn::ModelShape& s);

// The safetensors bytes of w under GPT-2's names (Conv1D weights transposed to (in, out)).
std::string gpt2_safetensors(const nn::ModelShape& s, const Weights& w);

// A Hugging Face tokenizer.json (byte-level BPE, GPT-2's regex, <|endoftext|> added) from GPT-2's encoder.json
// and vocab.bpe texts. Throws ParseError for malformed input.
std::string gpt2_tokenizer_json(const std::string& encoder_json, const std::string& vocab_bpe,
                                const std::string& encoder_path);

// Writes the directory (created if missing; an existing file of these names is replaced). gpt2_tokenizer_dir: where
// GPT-2's encoder.json and vocab.bpe are (empty: none of GPT-2's files); tokenizer_json: a tokenizer.json's text to
// write instead (another vocabulary, e.g. word_tokenizer_json). Throws IoError if a file cannot be written,
// InputError if the shape is not GPT-2's.
void write_gpt2_checkpoint(const std::string& dir, const nn::ModelShape& s, const Weights& w,
                           const std::string& gpt2_tokenizer_dir, const std::string& tokenizer_json = "");

}  // namespace lumen::model
