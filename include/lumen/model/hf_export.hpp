#pragma once
// Writing a trained GPT-2-shaped model as a Hugging Face GPT-2 directory, the layout GPT2LMHeadModel.from_pretrained
// and lumen's own loaders read:
//   config.json        model_type gpt2, n_embd, n_layer, n_head, n_positions, n_inner, vocab_size,
//                      tie_word_embeddings, activation_function gelu_new
//   model.safetensors  F32, GPT-2's names ("transformer.wte.weight", "transformer.h.0.attn.c_attn.weight", ...)
//                      with Conv1D's (in, out) layout; "lm_head.weight" (V, C) only when untied
//   the tokenizer      GPT-2's encoder.json + vocab.bpe (lumen), vocab.json + merges.txt (transformers) and a
//                      tokenizer.json made from them (lumen's tables label the wte rows by it)
// The directory is written as a whole (lumen::AtomicDir): built beside the target and renamed into its place, so an
// earlier directory's files (another tokenizer's) never stay beside the new ones, and an error or a signal leaves
// the target as it was. An existing target that holds files of other names is refused, never deleted.
#include <string>
#include <vector>

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

// The names of the files a GPT-2 directory of write_gpt2_checkpoint holds (what replacing an older one may delete).
const std::vector<std::string>& gpt2_directory_files();

// Throws UsageError if `dir` cannot be replaced by write_gpt2_checkpoint: it exists and is not a directory, or it
// holds files of other names (see above). Call before a long training run.
void check_gpt2_destination(const std::string& dir);

// Writes the directory as a whole, replacing an existing one (see above). gpt2_tokenizer_dir: where
// GPT-2's encoder.json and vocab.bpe are (empty: none of GPT-2's files); tokenizer_json: a tokenizer.json's text to
// write instead (another vocabulary, e.g. word_tokenizer_json). Throws IoError if a file cannot be written,
// InputError if the shape is not GPT-2's, UsageError as check_gpt2_destination.
void write_gpt2_checkpoint(const std::string& dir, const nn::ModelShape& s, const Weights& w,
                           const std::string& gpt2_tokenizer_dir, const std::string& tokenizer_json = "");

}  // namespace lumen::model
