// A word-level vocabulary as a byte-level BPE tokenizer.json (see word_tokenizer.hpp).
#include "lumen/model/word_tokenizer.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/text/byte_level.hpp"
#include "lumen/text/pretokenizer.hpp"
#include "lumen/text/tokenizer_json.hpp"

namespace lumen::model {

std::string word_tokenizer_json(const train::Corpus& corpus, std::size_t max_words, const ProgressFn& progress) {
  if (max_words == 0 || max_words > (std::size_t{1} << 20))
    throw OptionError("max_words", fmt::format("{{option}} must be in 1..{} (got {})", 1 << 20, max_words));
  text::Pretokenizer pre;
  pre.add_split(text::kGpt2Pattern);
  std::unordered_map<std::string, std::uint64_t> counts;
  std::vector<std::string_view> pieces;
  for (const train::CorpusFile& f : corpus.files()) {
    const std::string textc = read_file(f.path);
    pieces.clear();
    pre.split(textc, pieces);
    for (std::string_view p : pieces)
      if (p.size() >= 2) ++counts[std::string(p)];
    if (progress) progress("vocabulary", f.offset + f.size, corpus.bytes());
  }
  std::vector<std::pair<std::string, std::uint64_t>> words(counts.begin(), counts.end());
  std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (words.size() > max_words) words.resize(max_words);
  nlohmann::json vocab = nlohmann::json::object(), merges = nlohmann::json::array();
  for (int b = 0; b < 256; ++b) vocab[text::to_byte_level(std::string(1, static_cast<char>(b)))] = b;
  std::int64_t id = 256;
  bool two_byte = false;
  for (const auto& [w, n] : words) {
    vocab[text::to_byte_level(w)] = id++;
    if (w.size() == 2) {
      merges.push_back(text::to_byte_level(w.substr(0, 1)) + " " + text::to_byte_level(w.substr(1, 1)));
      two_byte = true;
    }
  }
  if (!two_byte) {  // loaders want at least one merge: spell " t" (a token then, never seen in training)
    vocab[text::to_byte_level(" t")] = id++;
    merges.push_back(text::to_byte_level(" ") + " t");
  }
  const std::int64_t eot = id++;
  vocab["<|endoftext|>"] = eot;
  const nlohmann::json j =
      text::byte_level_bpe_json({.vocab = vocab, .merges = merges, .eot = eot, .ignore_merges = true});
  return j.dump() + "\n";
}

}  // namespace lumen::model
