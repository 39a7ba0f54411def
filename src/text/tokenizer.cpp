#include "lumen/text/tokenizer.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <queue>

#include "lumen/core/error.hpp"
#include "lumen/text/byte_level.hpp"
#include "lumen/text/display.hpp"

namespace lumen::text {

namespace {
constexpr std::uint32_t kNoRank = 0xFFFFFFFFu;
constexpr std::size_t kCacheMax = 1 << 16;  // pieces remembered before the cache starts over
constexpr std::size_t kShortPiece = 48;     // up to this many bytes: O(n^2) merges on a flat array
}  // namespace

// (left id, right id) -> (rank, merged id): open addressing, the hot lookup of the merge loop.
struct Tokenizer::PairTable {
  struct Slot {
    std::uint64_t key = ~0ull;
    std::uint32_t rank = kNoRank;
    std::uint32_t merged = 0;
  };
  std::vector<Slot> slots;
  std::uint64_t mask = 0;

  static std::uint64_t key(Id a, Id b) { return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b); }
  static std::uint64_t mix(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
  }
  explicit PairTable(std::size_t n) {
    std::size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    slots.resize(cap);
    mask = cap - 1;
  }
  // Keeps the lowest rank when a pair is given twice.
  void put(Id a, Id b, std::uint32_t rank, Id merged) {
    const std::uint64_t k = key(a, b);
    for (std::uint64_t i = mix(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots[i];
      if (s.key == k) {
        if (rank < s.rank) s.rank = rank, s.merged = static_cast<std::uint32_t>(merged);
        return;
      }
      if (s.key == ~0ull) {
        s = Slot{k, rank, static_cast<std::uint32_t>(merged)};
        return;
      }
    }
  }
  const Slot* get(Id a, Id b) const {
    const std::uint64_t k = key(a, b);
    for (std::uint64_t i = mix(k) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots[i];
      if (s.key == k) return &s;
      if (s.key == ~0ull) return nullptr;
    }
  }
};

Tokenizer::Tokenizer(BpeModel model, Pretokenizer pre, std::vector<AddedToken> added)
    : model_(std::move(model)), pre_(std::move(pre)), added_(std::move(added)) {
  const auto& tokens = model_.tokens;
  std::size_t n = tokens.size();
  for (auto& a : added_) {
    if (a.id < 0) throw InputError(fmt::format("added token \"{}\" has a negative id {}", a.content, a.id));
    if (a.content.empty()) throw InputError(fmt::format("added token {} is empty", a.id));
    n = std::max(n, static_cast<std::size_t>(a.id) + 1);
  }
  pieces_.assign(n, std::string());
  added_flag_.assign(n, 0);
  index_.reserve(tokens.size());
  for (std::size_t id = 0; id < tokens.size(); ++id) {
    if (tokens[id].empty()) continue;
    pieces_[id] = tokens[id];
    if (!index_.emplace(tokens[id], static_cast<Id>(id)).second)
      throw InputError(fmt::format("token {} repeats the bytes of token {} (\"{}\")", id, index_.at(tokens[id]),
                                   display_piece(tokens[id])));
  }
  for (auto& a : added_) {
    pieces_[a.id] = a.content;
    added_flag_[a.id] = 1;
  }
  for (unsigned b = 0; b < 256; ++b) {
    auto it = index_.find(std::string_view(reinterpret_cast<const char*>(&b), 1));
    if (it == index_.end())
      throw InputError(fmt::format("not a byte-level BPE vocabulary: byte 0x{:02x} (\"{}\") has no token", b,
                                   to_byte_level(std::string(1, static_cast<char>(b)))));
    byte_id_[b] = it->second;
  }

  if (model_.merge_by_token_rank) {
    // Every split of a token into two tokens is a pair that merges into it, ranked by the token's id.
    pairs_ = std::make_unique<PairTable>(tokens.size() * 4);
    for (std::size_t id = 0; id < tokens.size(); ++id) {
      const std::string_view t = tokens[id];
      for (std::size_t k = 1; k < t.size(); ++k) {
        auto a = index_.find(t.substr(0, k));
        if (a == index_.end()) continue;
        auto b = index_.find(t.substr(k));
        if (b == index_.end()) continue;
        pairs_->put(a->second, b->second, static_cast<std::uint32_t>(id), static_cast<Id>(id));
      }
    }
  } else {
    pairs_ = std::make_unique<PairTable>(model_.merges.size() + 1);
    for (std::size_t r = 0; r < model_.merges.size(); ++r) {
      const auto [a, b] = model_.merges[r];
      if (!has(a) || !has(b) || added_flag_[a] || added_flag_[b])
        throw InputError(fmt::format("merge {} names an id that is not a token ({} {})", r, a, b));
      auto m = index_.find(tokens[a] + tokens[b]);
      if (m == index_.end())
        throw InputError(fmt::format("merge {} (\"{}\" + \"{}\") makes a token that is not in the vocabulary", r,
                                     to_byte_level(tokens[a]), to_byte_level(tokens[b])));
      pairs_->put(a, b, static_cast<std::uint32_t>(r), m->second);
    }
  }

  if (!added_.empty()) {
    // One alternation, longest first, so the leftmost longest added token wins.
    std::vector<const AddedToken*> sorted;
    for (auto& a : added_) sorted.push_back(&a);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](auto* x, auto* y) { return x->content.size() > y->content.size(); });
    std::string pattern;
    for (auto* a : sorted) {
      if (!pattern.empty()) pattern += '|';
      for (char c : a->content) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80 && !std::isalnum(u)) pattern += '\\';
        pattern += c;
      }
    }
    added_regex_ = std::make_unique<Regex>(pattern);
  }
}

Tokenizer::~Tokenizer() = default;

std::vector<Id> Tokenizer::encode(std::string_view text, bool specials) const {
  std::vector<Id> out;
  out.reserve(text.size() / 3 + 4);
  encode(text, out, specials);
  return out;
}

void Tokenizer::encode(std::string_view text, std::vector<Id>& out, bool specials) const {
  if (!specials || !added_regex_) {
    encode_ordinary(text, out);
    return;
  }
  std::vector<std::pair<std::size_t, std::size_t>> found;
  added_regex_->find_all(text, found);
  std::size_t last = 0;
  for (auto [b, e] : found) {
    if (b > last) encode_ordinary(text.substr(last, b - last), out);
    const std::string_view content = text.substr(b, e - b);
    for (auto& a : added_)
      if (a.content == content) {
        out.push_back(a.id);
        break;
      }
    last = e;
  }
  if (last < text.size()) encode_ordinary(text.substr(last), out);
}

void Tokenizer::encode_ordinary(std::string_view text, std::vector<Id>& out) const {
  if (text.empty()) return;
  std::string prefixed;
  if (model_.add_prefix_space && text.front() != ' ') {
    prefixed.reserve(text.size() + 1);
    prefixed += ' ';
    prefixed += text;
    text = prefixed;
  }
  std::vector<std::string_view> pieces;
  pieces.reserve(text.size() / 4 + 4);
  pre_.split(text, pieces);
  for (std::string_view p : pieces) encode_piece(p, out);
}

void Tokenizer::encode_piece(std::string_view piece, std::vector<Id>& out) const {
  if (piece.size() == 1) {
    out.push_back(byte_id_[static_cast<unsigned char>(piece[0])]);
    return;
  }
  if (model_.whole_piece_first) {
    auto it = index_.find(piece);
    if (it != index_.end()) {
      out.push_back(it->second);
      return;
    }
  }
  {
    std::lock_guard lock(cache_mutex_);
    auto it = cache_.find(piece);
    if (it != cache_.end()) {
      out.insert(out.end(), it->second.begin(), it->second.end());
      return;
    }
  }
  const std::size_t start = out.size();
  if (piece.size() <= kShortPiece) merge(piece, out);
  else merge_long(piece, out);
  std::lock_guard lock(cache_mutex_);
  if (cache_.size() >= kCacheMax) cache_.clear();
  cache_.emplace(std::string(piece), std::vector<Id>(out.begin() + static_cast<std::ptrdiff_t>(start), out.end()));
}

// Lowest rank first, leftmost among equals, one merge at a time: a flat array for short pieces.
void Tokenizer::merge(std::string_view piece, std::vector<Id>& out) const {
  Id ids[kShortPiece];
  std::uint32_t rank[kShortPiece];  // rank[i]: of the pair (ids[i], ids[i+1])
  Id merged[kShortPiece];
  std::size_t n = piece.size();
  for (std::size_t i = 0; i < n; ++i) ids[i] = byte_id_[static_cast<unsigned char>(piece[i])];
  auto look = [&](std::size_t i) {
    const auto* s = pairs_->get(ids[i], ids[i + 1]);
    rank[i] = s ? s->rank : kNoRank;
    merged[i] = s ? s->merged : 0;
  };
  for (std::size_t i = 0; i + 1 < n; ++i) look(i);
  while (n > 1) {
    std::size_t best = 0;
    for (std::size_t i = 1; i + 1 < n; ++i)
      if (rank[i] < rank[best]) best = i;
    if (rank[best] == kNoRank) break;
    ids[best] = merged[best];
    for (std::size_t i = best + 1; i + 1 < n; ++i) ids[i] = ids[i + 1];
    for (std::size_t i = best + 1; i + 2 < n; ++i) rank[i] = rank[i + 1], merged[i] = merged[i + 1];
    --n;
    if (best > 0) look(best - 1);
    if (best + 1 < n) look(best);
  }
  out.insert(out.end(), ids, ids + n);
}

// The same order of merges with a heap and a linked list: O(n log n) for long pieces (runs of spaces, digits).
void Tokenizer::merge_long(std::string_view piece, std::vector<Id>& out) const {
  const std::size_t n = piece.size();
  std::vector<Id> ids(n);
  std::vector<std::ptrdiff_t> prev(n), next(n);
  for (std::size_t i = 0; i < n; ++i) {
    ids[i] = byte_id_[static_cast<unsigned char>(piece[i])];
    prev[i] = static_cast<std::ptrdiff_t>(i) - 1;
    next[i] = i + 1 < n ? static_cast<std::ptrdiff_t>(i + 1) : -1;
  }
  struct Cand {
    std::uint32_t rank;
    std::size_t left;
    Id a, b, merged;
    bool operator>(const Cand& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<Cand>> heap;
  auto push = [&](std::size_t left) {
    const std::ptrdiff_t r = next[left];
    if (r < 0) return;
    if (const auto* s = pairs_->get(ids[left], ids[r])) heap.push(Cand{s->rank, left, ids[left], ids[r], s->merged});
  };
  for (std::size_t i = 0; i + 1 < n; ++i) push(i);
  while (!heap.empty()) {
    const Cand c = heap.top();
    heap.pop();
    const std::ptrdiff_t r = next[c.left];
    // Stale: the left part or its right neighbour changed since this pair was seen.
    if (ids[c.left] != c.a || r < 0 || ids[r] != c.b) continue;
    ids[c.left] = c.merged;
    ids[r] = -1;
    next[c.left] = next[r];
    if (next[r] >= 0) prev[next[r]] = static_cast<std::ptrdiff_t>(c.left);
    if (prev[c.left] >= 0) push(static_cast<std::size_t>(prev[c.left]));
    push(c.left);
  }
  for (std::ptrdiff_t i = 0; i >= 0; i = next[i]) out.push_back(ids[i]);
}

std::string Tokenizer::decode(std::span<const Id> ids) const {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!has(ids[i])) throw IdError(ids[i], i, static_cast<std::int64_t>(size()));
    out += pieces_[ids[i]];
  }
  return out;
}

const std::string& Tokenizer::piece(Id id) const {
  if (!has(id)) throw IdError(id, 0, static_cast<std::int64_t>(size()));
  return pieces_[id];
}

bool Tokenizer::is_added(Id id) const { return has(id) && added_flag_[id]; }

std::string Tokenizer::label(Id id) const {
  if (is_added(id)) return pieces_[id];
  return display_piece(piece(id));
}

std::optional<Id> Tokenizer::find(std::string_view text) const {
  for (auto& a : added_)
    if (a.content == text) return a.id;
  if (auto it = index_.find(text); it != index_.end()) return it->second;
  if (auto it = index_.find(parse_display(text)); it != index_.end()) return it->second;
  if (auto raw = from_byte_level(text)) {
    if (auto it = index_.find(*raw); it != index_.end()) return it->second;
  }
  return std::nullopt;
}

}  // namespace lumen::text
