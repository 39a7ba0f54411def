// libFuzzer target: a `word count` vocabulary file (what `lumen train --save-vocab` writes and training can read
// back) from arbitrary bytes. Loading must succeed or throw lumen::InputError naming the line; in a vocabulary
// that loads, every word maps back to its own id.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lumen/core/error.hpp"
#include "lumen/train/vocabulary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("lumen-fuzz-vocab-" + std::to_string(::getpid()))).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    const lumen::Vocab v = lumen::train::load_vocab_counts(path);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto id = static_cast<lumen::Id>(i);
      if (v.find(v.token(id)) != id) {
        std::fprintf(stderr, "token %zu does not map back to its id\n", i);
        std::abort();
      }
    }
  } catch (const lumen::InputError&) {
  }
  return 0;
}
