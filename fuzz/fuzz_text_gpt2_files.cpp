// libFuzzer target: GPT-2's tokenizer files (encoder.json + vocab.bpe) from arbitrary bytes. Input layout: the
// first two bytes (little-endian) give the length of encoder.json, which follows; vocab.bpe is the rest. Loading
// must succeed or throw lumen::InputError (a ParseError naming the file and place); a tokenizer that loads must
// round-trip any text, byte for byte.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/text/tokenizer_files.hpp"

namespace {

const std::string& path(const char* what) {
  static const std::string dir = "/tmp/lumen-fuzz-gpt2-files-" + std::to_string(::getpid());
  static const std::string enc = dir + "-encoder.json", bpe = dir + "-vocab.bpe";
  return std::string_view(what) == "encoder" ? enc : bpe;
}

void write(const std::string& p, std::string_view bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t n = (data[0] | (std::size_t{data[1]} << 8)) % (size - 1);
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  write(path("encoder"), rest.substr(0, n));
  write(path("bpe"), rest.substr(n));
  std::unique_ptr<lumen::text::Tokenizer> tok;
  try {
    tok = lumen::text::load_gpt2_files(path("encoder"), path("bpe"));
  } catch (const lumen::InputError&) {
    return 0;
  }
  for (const std::string s : {"The cat sat", "caf\xc3\xa9 \xf0\x9f\x98\x80  12345\n\n", "\xff\xfe bytes"}) {
    if (tok->decode(tok->encode(s, false)) != s) {
      std::fprintf(stderr, "round trip failed for '%s'\n", s.c_str());
      std::abort();
    }
  }
  return 0;
}
