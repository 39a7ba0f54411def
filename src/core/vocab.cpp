#include "lumen/core/vocab.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <numeric>
#include <utility>

#include "lumen/core/error.hpp"

namespace lumen {

namespace {

// 8 bytes at a time, multiply and fold, then a 64-bit finaliser: every input bit reaches the low bits (the slot)
// and the high 32 (the tag kept in the slot).
std::uint64_t hash_bytes(std::string_view s) noexcept {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ (static_cast<std::uint64_t>(n) * 0xff51afd7ed558ccdull);
  while (n >= 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n != 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0x94d049bb133111ebull;
    h ^= h >> 31;
  }
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32;
  return h;
}

constexpr std::uint64_t kIdMask = 0xffffffffull;

// A label numbered() made: "0" or digits without a leading zero, below n.
std::optional<Id> parse_numbered(std::string_view s, std::size_t n) {
  if (s.empty() || s.size() > 19 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size() || v >= n) return std::nullopt;
  return static_cast<Id>(v);
}

}  // namespace

std::size_t StringHash::operator()(std::string_view s) const noexcept {
  return static_cast<std::size_t>(hash_bytes(s));
}

Vocab::Vocab() : lazy_(std::make_unique<Lazy>()) {}
Vocab::~Vocab() = default;

void Vocab::ensure_lazy() {
  if (!lazy_) lazy_ = std::make_unique<Lazy>();
}

void Vocab::copy_from(const Vocab& other) {
  ensure_lazy();
  // The other's lazy steps may be running in another thread: copy under its lock (a moved-from other has none).
  std::unique_lock<std::mutex> lock;
  if (other.lazy_) lock = std::unique_lock<std::mutex>(other.lazy_->mutex);
  numbered_ = other.numbered_;
  numbered_size_ = other.numbered_size_;
  tokens_ = other.tokens_;
  counts_ = other.counts_;
  has_counts_ = other.has_counts_;
  slots_ = other.slots_;
  reserved_ = other.reserved_;
  aliases_ = other.aliases_;
  lazy_->labels_ready.store(other.lazy_ && other.lazy_->labels_ready.load());
  lazy_->index_ready.store(other.lazy_ && other.lazy_->index_ready.load());
}

// Moves and exchanges only (no allocation): the lazy state travels with the tokens it describes, and other is
// left empty without one (ensure_lazy makes it anew on other's next mutation).
void Vocab::take(Vocab& other) noexcept {
  numbered_ = std::exchange(other.numbered_, false);
  numbered_size_ = std::exchange(other.numbered_size_, 0);
  tokens_ = std::exchange(other.tokens_, {});
  counts_ = std::exchange(other.counts_, {});
  has_counts_ = std::exchange(other.has_counts_, false);
  slots_ = std::exchange(other.slots_, {});
  reserved_ = std::exchange(other.reserved_, 0);
  aliases_ = std::move(other.aliases_);
  other.aliases_.clear();
  lazy_ = std::move(other.lazy_);
}

Vocab::Vocab(const Vocab& other) { copy_from(other); }

Vocab::Vocab(Vocab&& other) noexcept { take(other); }

Vocab& Vocab::operator=(const Vocab& other) {
  if (this != &other) copy_from(other);
  return *this;
}

Vocab& Vocab::operator=(Vocab&& other) noexcept {
  if (this != &other) take(other);
  return *this;
}

Vocab Vocab::numbered(std::size_t n) {
  Vocab v;
  v.numbered_ = true;
  v.numbered_size_ = n;
  return v;
}

Vocab Vocab::from_unique(std::vector<std::string> tokens, std::vector<std::uint64_t> counts) {
  Vocab v;
  if (!counts.empty()) {
    if (counts.size() != tokens.size())
      throw Error("Vocab::from_unique: " + std::to_string(counts.size()) + " counts for " +
                  std::to_string(tokens.size()) + " tokens");
    v.has_counts_ = std::any_of(counts.begin(), counts.end(), [](std::uint64_t c) { return c != 0; });
    if (v.has_counts_) v.counts_ = std::move(counts);
  }
  v.tokens_ = std::move(tokens);
  return v;  // index_ready is false: the first find() builds it
}

void Vocab::materialise_labels() const {
  if (!numbered_ || lazy_->labels_ready.load(std::memory_order_acquire)) return;
  const std::lock_guard<std::mutex> lock(lazy_->mutex);
  if (lazy_->labels_ready.load(std::memory_order_relaxed)) return;
  tokens_.clear();
  tokens_.reserve(numbered_size_);
  char buf[24];
  for (std::size_t i = 0; i < numbered_size_; ++i) {
    const auto r = std::to_chars(buf, buf + sizeof buf, i);
    tokens_.emplace_back(buf, r.ptr);
  }
  lazy_->labels_ready.store(true, std::memory_order_release);
}

const std::string& Vocab::token(Id id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= size())
    throw std::out_of_range("Vocab::token: id " + std::to_string(id) + " of " + std::to_string(size()));
  materialise_labels();
  return tokens_[static_cast<std::size_t>(id)];
}

std::string Vocab::label(Id id) const {
  const bool spell = numbered_ && !lazy_->labels_ready.load(std::memory_order_acquire);
  return spell && id >= 0 && static_cast<std::size_t>(id) < size() ? std::to_string(id) : token(id);  // token: range
}

const std::vector<std::string>& Vocab::tokens() const {
  materialise_labels();
  return tokens_;
}

void Vocab::grow_slots(std::size_t want) const {
  std::size_t cap = 16;
  while (cap < 2 * want) cap *= 2;  // load factor at most 1/2
  if (cap <= slots_.size()) return;
  std::vector<std::uint64_t> old(cap, 0);
  old.swap(slots_);
  const std::size_t mask = cap - 1;
  for (std::uint64_t s : old) {
    if (s == 0) continue;
    // Re-derive the slot from the token (the stored tag holds only the high half of its hash).
    const auto id = static_cast<std::size_t>((s & kIdMask) - 1);
    std::size_t i = static_cast<std::size_t>(hash_bytes(tokens_[id])) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void Vocab::insert_slot(std::uint64_t h, Id id) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = static_cast<std::size_t>(h) & mask;
  while (slots_[i] != 0) i = (i + 1) & mask;
  slots_[i] = (h & ~kIdMask) | (static_cast<std::uint64_t>(id) + 1);
}

std::optional<Id> Vocab::find_token(std::string_view token, std::uint64_t h) const {
  if (slots_.empty()) return std::nullopt;
  const std::size_t mask = slots_.size() - 1;
  const std::uint64_t tag = h & ~kIdMask;
  for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
    const std::uint64_t s = slots_[i];
    if (s == 0) return std::nullopt;
    if ((s & ~kIdMask) == tag) {
      const auto id = static_cast<std::size_t>((s & kIdMask) - 1);
      if (tokens_[id] == token) return static_cast<Id>(id);
    }
  }
}

void Vocab::build_index() const {
  if (tokens_.size() >= kIdMask) throw Error("Vocab: more than 2^32 - 2 tokens");
  slots_.clear();
  grow_slots(std::max(tokens_.size(), reserved_));
  for (std::size_t id = 0; id < tokens_.size(); ++id) {
    const std::uint64_t h = hash_bytes(tokens_[id]);
    if (!find_token(tokens_[id], h)) insert_slot(h, static_cast<Id>(id));  // equal tokens: the first wins
  }
}

void Vocab::ensure_index() const {
  if (numbered_ || !lazy_ || lazy_->index_ready.load(std::memory_order_acquire)) return;
  const std::lock_guard<std::mutex> lock(lazy_->mutex);
  if (lazy_->index_ready.load(std::memory_order_relaxed)) return;
  build_index();
  lazy_->index_ready.store(true, std::memory_order_release);
}

void Vocab::make_explicit() {
  ensure_lazy();
  if (numbered_) {
    materialise_labels();
    numbered_ = false;
    numbered_size_ = 0;
    lazy_->labels_ready.store(false);
    lazy_->index_ready.store(false);
  }
  ensure_index();
}

void Vocab::reserve(std::size_t n) {
  if (numbered_) return;
  ensure_lazy();
  tokens_.reserve(n);
  reserved_ = std::max(reserved_, n);
  if (lazy_->index_ready.load()) grow_slots(n);
}

std::optional<Id> Vocab::add(std::string token, std::uint64_t count) {
  make_explicit();
  const std::uint64_t h = hash_bytes(token);
  if (find_token(token, h) || (!aliases_.empty() && aliases_.find(std::string_view(token)) != aliases_.end()))
    return std::nullopt;
  if (tokens_.size() + 1 >= kIdMask) throw Error("Vocab: more than 2^32 - 2 tokens");
  const Id id = static_cast<Id>(tokens_.size());
  if (2 * (tokens_.size() + 1) > slots_.size()) grow_slots(std::max(tokens_.size() + 1, reserved_));
  tokens_.push_back(std::move(token));
  insert_slot(h, id);
  if (count != 0 && !has_counts_) {
    has_counts_ = true;
    counts_.assign(tokens_.size() - 1, 0);
  }
  if (has_counts_) counts_.push_back(count);
  return id;
}

bool Vocab::add_alias(std::string alias, Id id) {
  if (id < 0 || static_cast<std::size_t>(id) >= size()) return false;
  if (find(alias)) return false;
  return aliases_.try_emplace(std::move(alias), id).second;
}

std::optional<Id> Vocab::find(std::string_view token) const {
  if (numbered_) {
    if (auto id = parse_numbered(token, numbered_size_)) return id;
  } else {
    ensure_index();
    if (auto id = find_token(token, hash_bytes(token))) return id;
  }
  if (aliases_.empty()) return std::nullopt;
  auto it = aliases_.find(token);
  if (it == aliases_.end()) return std::nullopt;
  return it->second;
}

Id Vocab::require(std::string_view token) const {
  if (auto id = find(token)) return *id;
  throw UnknownTokenError(std::string(token), suggest(token));
}

namespace {
// Levenshtein distance over bytes, giving up (returning limit+1) once every cell exceeds limit.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t best = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      best = std::min(best, cur[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::vector<std::string> Vocab::suggest(std::string_view token, std::size_t max) const {
  const std::size_t limit = std::max<std::size_t>(2, token.size() / 3);
  const std::vector<std::string>& all = tokens();
  std::vector<std::pair<std::size_t, Id>> found;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::size_t d = edit_distance(token, all[i], limit);
    if (d <= limit) found.emplace_back(d, static_cast<Id>(i));
  }
  std::stable_sort(found.begin(), found.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < found.size() && out.size() < max; ++i)
    out.push_back(all[static_cast<std::size_t>(found[i].second)]);
  return out;
}

void Vocab::truncate(std::size_t n) {
  if (n >= size()) return;  // (a moved-from Vocab is empty: it returns here)
  std::erase_if(aliases_, [n](const auto& kv) { return kv.second >= static_cast<Id>(n); });
  if (has_counts_) counts_.resize(n);
  if (numbered_) {
    numbered_size_ = n;
    if (lazy_->labels_ready.load()) tokens_.resize(n);
    return;
  }
  tokens_.resize(n);
  slots_.clear();
  lazy_->index_ready.store(false);  // rebuilt on the next lookup
}

}  // namespace lumen
