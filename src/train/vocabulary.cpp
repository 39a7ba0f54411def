#include "lumen/train/vocabulary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <unordered_map>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"

namespace lumen::train {

namespace {
struct Entry {
  std::uint64_t count = 0;
  std::uint64_t first = 0;  // index of the first occurrence
};

// Heterogeneous lookup: find by string_view without building a std::string.
struct Hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
}  // namespace

Vocab build_vocab(const Corpus& corpus, const text::WordSplitter& tokenizer, const VocabOptions& options,
                  VocabStats* stats, const ProgressFn& progress) {
  std::unordered_map<std::string, Entry, Hash, std::equal_to<>> counts;
  CorpusReader reader(corpus, tokenizer, 0, options.end_byte == 0 ? corpus.bytes() : options.end_byte, true);
  Sentence s;
  std::uint64_t n = 0, min_reduce = 1, lines = 0;
  // As word2vec: if the table of distinct words grows past this, drop the rarest (count <= min_reduce) and
  // raise the bar, so an enormous corpus never exhausts memory (counts of rare words become approximate).
  constexpr std::size_t kMaxDistinct = 30'000'000;
  while (reader.next_sentence(s)) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto w = s[i];
      auto it = counts.find(w);
      if (it == counts.end()) it = counts.emplace(std::string(w), Entry{0, n}).first;
      ++it->second.count;
      ++n;
    }
    if (counts.size() > kMaxDistinct) {
      std::erase_if(counts, [&](const auto& kv) { return kv.second.count <= min_reduce; });
      ++min_reduce;
    }
    if (progress && (++lines & 1023) == 0)
      progress("vocabulary", reader.position(), options.end_byte == 0 ? corpus.bytes() : options.end_byte);
  }
  struct Row {
    const std::string* word;
    Entry e;
  };
  std::vector<Row> rows;
  rows.reserve(counts.size());
  for (auto& [w, e] : counts)
    if (e.count >= std::max<std::uint64_t>(options.min_count, 1)) rows.push_back({&w, e});
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.e.count != b.e.count ? a.e.count > b.e.count : a.e.first < b.e.first;
  });
  if (options.max_vocab > 0 && rows.size() > options.max_vocab) rows.resize(options.max_vocab);
  Vocab v;
  v.reserve(rows.size());
  std::uint64_t kept = 0;
  for (auto& r : rows) {
    v.add(*r.word, r.e.count);
    kept += r.e.count;
  }
  if (stats) *stats = {n, kept, counts.size()};
  return v;
}

void save_vocab_counts(const std::string& path, const Vocab& vocab) {
  AtomicFile f(path);
  std::string line;
  for (std::size_t i = 0; i < vocab.size(); ++i) {
    line.clear();
    line += vocab.token(static_cast<Id>(i));
    line += ' ';
    line += std::to_string(vocab.count(static_cast<Id>(i)));
    line += '\n';
    f.write(line);
  }
  f.commit();
}

Vocab load_vocab_counts(const std::string& path) {
  require_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot open vocabulary file", path));
  Vocab v;
  std::string line;
  std::uint64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto sp = line.rfind(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 == line.size())
      throw ParseError(path, lineno, 0, "expected `word count`");
    std::uint64_t count = 0;
    const char* b = line.data() + sp + 1;
    const char* e = line.data() + line.size();
    auto [p, ec] = std::from_chars(b, e, count);
    if (ec != std::errc() || p != e) throw ParseError(path, lineno, 0, "the count is not a non-negative integer");
    if (!v.add(line.substr(0, sp), count))
      throw ParseError(path, lineno, 0, "duplicate word '" + line.substr(0, sp) + "'");
  }
  if (in.bad()) throw IoError(fmt::format("{}: read error", path));
  return v;
}

std::vector<float> keep_probabilities(const Vocab& vocab, double t) {
  std::vector<float> keep(vocab.size(), 1.0f);
  if (t <= 0) return keep;
  double total = 0;
  for (auto c : vocab.counts()) total += static_cast<double>(c);
  if (total <= 0) return keep;
  for (std::size_t i = 0; i < vocab.size(); ++i) {
    const double f = static_cast<double>(vocab.count(static_cast<Id>(i))) / total;
    if (f <= 0) continue;
    keep[i] = static_cast<float>(std::min(1.0, std::sqrt(t / f) + t / f));
  }
  return keep;
}

}  // namespace lumen::train
