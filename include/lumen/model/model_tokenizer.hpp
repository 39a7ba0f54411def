#pragma once
// The tokenizer that goes with a checkpoint: the one named, else a GGUF's own, else tokenizer.json / encoder.json
// in the checkpoint's directory, else (a GPT-2 with V 50257) GPT-2's own files. Its size must match the model's V.
#include <memory>
#include <string>

#include "lumen/model/transformer.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// Throws InputError when no tokenizer is found, or when its size is not the model's vocabulary V (naming both).
// checkpoint: what load_checkpoint was given (a directory, a file in one, or a .gguf).
std::unique_ptr<text::Tokenizer> tokenizer_for(const Transformer& model, const std::string& checkpoint,
                                               const std::string& tokenizer_path = "");

// Throws InputError if tokenizer.size() != V.
void check_tokenizer(const Transformer& model, const text::Tokenizer& tokenizer);

}  // namespace lumen::model
