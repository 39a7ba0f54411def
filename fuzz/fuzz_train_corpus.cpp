// libFuzzer target: a training corpus (`lumen train CORPUS`) from arbitrary bytes, read the way training threads
// read it. Byte 0 picks the tokenizer options (--lower, --split-punct) and byte 1 where a second thread's range
// starts; the rest is the file. Reading must never fail on any bytes, and two readers splitting the file must
// see exactly the tokens one reader sees, in order (a word cut by the split belongs to the first range).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/text/word_splitter.hpp"
#include "lumen/train/corpus.hpp"

namespace {

using namespace lumen::train;

std::vector<std::string> tokens(const Corpus& c, const lumen::text::WordSplitter& t, std::uint64_t b, std::uint64_t e,
                                bool aligned) {
  std::vector<std::string> out;
  CorpusReader r(c, t, b, e, aligned, 7);  // short sentences: the max-sentence cut is exercised too
  Sentence s;
  while (r.next_sentence(s))
    for (std::size_t i = 0; i < s.size(); ++i) out.emplace_back(s[i]);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("lumen-fuzz-corpus-" + std::to_string(::getpid()))).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data) + 2, static_cast<std::streamsize>(size - 2));
  lumen::text::WordSplitOptions to;
  to.lower = (data[0] & 1) != 0;
  to.split_punct = (data[0] & 2) != 0;
  const lumen::text::WordSplitter t(to);
  try {
    const Corpus c = Corpus::open({path});
    const std::uint64_t n = c.bytes(), mid = n == 0 ? 0 : data[1] % (n + 1);
    const auto whole = tokens(c, t, 0, n, true);
    auto split = tokens(c, t, 0, mid, true);
    const auto second = tokens(c, t, mid, n, false);
    split.insert(split.end(), second.begin(), second.end());
    if (split != whole) {
      std::fprintf(stderr, "split at byte %llu: %zu tokens, one reader: %zu\n", static_cast<unsigned long long>(mid),
                   split.size(), whole.size());
      std::abort();
    }
  } catch (const lumen::InputError&) {  // an empty corpus
  }
  return 0;
}
