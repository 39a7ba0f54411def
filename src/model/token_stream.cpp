// Encoding a corpus for GPT training: file by file, in chunks of about 1 MiB cut just after a newline that is
// followed by a non-space (where GPT-2's pre-tokenizer splits anyway, so chunking changes no token).
#include "lumen/model/token_stream.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"

namespace lumen::model {

namespace {
constexpr std::size_t kChunk = 1 << 20;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
}  // namespace

std::vector<std::int32_t> encode_corpus(const train::Corpus& corpus, const text::Tokenizer& tokenizer,
                                        const ProgressFn& progress) {
  std::vector<std::int32_t> out;
  const auto eot = tokenizer.find("<|endoftext|>");
  std::vector<Id> ids;
  for (const train::CorpusFile& f : corpus.files()) {
    const std::string text = read_file(f.path);
    if (!out.empty() && eot) out.push_back(static_cast<std::int32_t>(*eot));
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t end = std::min(text.size(), pos + kChunk);
      while (end < text.size() && !(text[end - 1] == '\n' && !is_space(text[end]))) ++end;
      ids.clear();
      tokenizer.encode(std::string_view(text).substr(pos, end - pos), ids, false);
      for (const Id id : ids) out.push_back(static_cast<std::int32_t>(id));
      pos = end;
      if (progress) progress("tokenize", f.offset + pos, corpus.bytes());
    }
  }
  return out;
}

RareTokens rare_tokens(std::span<const std::int32_t> stream, std::size_t V, double fraction) {
  if (!(fraction > 0 && fraction <= 1))
    throw InputError(fmt::format("a fraction of {} (it must be in (0, 1])", fraction));
  if (stream.empty()) throw InputError("no tokens to count");
  std::vector<std::uint64_t> count(V, 0);
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::int32_t t = stream[i];
    if (t < 0 || static_cast<std::size_t>(t) >= V) throw IdError(t, i, static_cast<std::int64_t>(V));
    ++count[static_cast<std::size_t>(t)];
  }
  std::vector<std::uint64_t> seen;
  for (const std::uint64_t c : count)
    if (c > 0) seen.push_back(c);
  std::sort(seen.begin(), seen.end());
  const auto k =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(fraction * static_cast<double>(seen.size()))));
  RareTokens r;
  r.seen = seen.size();
  r.max_count = seen[k - 1];
  r.mask.assign(V, false);
  for (std::size_t t = 0; t < V; ++t)
    if (count[t] > 0 && count[t] <= r.max_count) {
      r.mask[t] = true;
      ++r.rare;
    }
  return r;
}

}  // namespace lumen::model
