// libFuzzer target: a Hugging Face tokenizer.json from arbitrary bytes. Must parse or throw lumen::Error
// (ParseError for a malformed file); a tokenizer that loads must encode and round-trip a few strings
// (with one leading space more where the file asks for add_prefix_space).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/text/tokenizer_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<lumen::text::Tokenizer> tok;
  try {
    tok = lumen::text::parse_tokenizer_json(text, "fuzz.json");
  } catch (const lumen::Error&) {
    return 0;
  }
  for (std::string s : {"The cat sat", "caf\xc3\xa9 \xf0\x9f\x98\x80  12345\n\n", "\xff\xfe bytes"}) {
    const auto ids = tok->encode(s, false);
    const std::string back = tok->decode(ids);
    if (back != s && back != " " + s) __builtin_trap();  // ByteLevel(add_prefix_space) adds the space
  }
  return 0;
}
