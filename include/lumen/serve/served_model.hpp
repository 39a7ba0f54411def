#pragma once
// A model the explorer runs (the Drift view): a GPT-2 or Llama checkpoint with its tokenizer, opened as
// `lumen serve --model` opens it.
#include <memory>
#include <string>

namespace lumen::text {
class Tokenizer;
}
namespace lumen::model {
class Transformer;
}

namespace lumen::serve {

struct ServedModel {
  std::shared_ptr<const model::Transformer> model;
  std::shared_ptr<const text::Tokenizer> tokenizer;  // its size is the model's V
  std::string source;                                // where it came from (its directory)
};

// The checkpoint at `path` (its directory, or a file in it) with the tokenizer beside it; throws what
// model::load_checkpoint and model::tokenizer_for throw.
ServedModel load_served_model(const std::string& path);

}  // namespace lumen::serve
