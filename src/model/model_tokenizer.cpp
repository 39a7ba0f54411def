#include "lumen/model/model_tokenizer.hpp"

#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "model/gguf_checkpoint.hpp"

namespace lumen::model {

namespace fs = std::filesystem;

void check_tokenizer(const Transformer& model, const text::Tokenizer& tokenizer) {
  if (tokenizer.size() != model.shape().V)
    throw InputError(fmt::format("{}: the tokenizer has {} ids; the model's vocabulary (config.json vocab_size) is {}",
                                 tokenizer.source, tokenizer.size(), model.shape().V));
}

std::unique_ptr<text::Tokenizer> tokenizer_for(const Transformer& model, const std::string& checkpoint,
                                               const std::string& tokenizer_path) {
  std::unique_ptr<text::Tokenizer> tok;
  std::error_code ec;
  const std::string dir = is_gguf_file(checkpoint) ? std::string() : checkpoint_dir(checkpoint);
  if (!tokenizer_path.empty()) {
    tok = text::load_tokenizer(tokenizer_path);
  } else if (dir.empty()) {
    tok = text::load_gguf_tokenizer(checkpoint);  // the tokenizer the file carries
  } else if (fs::exists(fs::path(dir) / "tokenizer.json", ec) || fs::exists(fs::path(dir) / "encoder.json", ec)) {
    tok = text::load_tokenizer(dir);
  } else if (model.config().family == Family::gpt2 && model.shape().V == 50257 && !text::default_gpt2_dir().empty()) {
    tok = text::load_tokenizer(text::default_gpt2_dir());
  } else {
    throw InputError(OptionText{
        fmt::format("{}: no tokenizer.json or encoder.json beside the checkpoint; name one with {{tokenizer}}", dir),
        {"tokenizer"}});
  }
  check_tokenizer(model, *tok);
  return tok;
}

}  // namespace lumen::model
