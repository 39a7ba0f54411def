#pragma once
// Token strings <-> ids, with optional counts (frequency-sorted vocabularies keep them).
//
// Opening a mapped table costs no per-row work here: a numbered vocabulary ("0" .. "n-1") stores only n (its
// labels are made on the first token()/tokens() call, and find() parses a label instead of hashing it), and a
// vocabulary made from tokens known to be distinct (from_unique) builds its hash index on the first lookup. The
// lazy steps are safe to race from several threads reading one const Vocab; the mutating calls are not.
//
// Moving allocates nothing and cannot throw: the moved-from Vocab is empty (size() 0, finds nothing) and usable
// again (add, assign, copy); it makes its lazy state anew on its next mutation.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lumen {

using Id = std::int64_t;

// A transparent string hash: unordered maps keyed by std::string that find by std::string_view without building a
// std::string per lookup (std::unordered_map<std::string, V, StringHash, std::equal_to<>>).
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept;
};

class Vocab {
 public:
  Vocab();
  Vocab(const Vocab& other);
  Vocab(Vocab&& other) noexcept;
  Vocab& operator=(const Vocab& other);
  Vocab& operator=(Vocab&& other) noexcept;
  ~Vocab();

  // Tokens "0", "1", ... "n-1": rows labelled by id until a tokenizer names them. O(1): no strings, no index.
  static Vocab numbered(std::size_t n);
  // Tokens the caller knows to be distinct (a cache entry written from a Vocab), kept in order; the index is built
  // on the first lookup. Should two be equal after all, find() returns the first.
  static Vocab from_unique(std::vector<std::string> tokens, std::vector<std::uint64_t> counts = {});

  // Appends a token and returns its id; a duplicate is not added and returns std::nullopt.
  std::optional<Id> add(std::string token, std::uint64_t count = 0);
  // Another spelling find() accepts for an existing id (a tokenizer's " cat" and "Ġcat" for the row labelled
  // "␣cat"); not a token: size() and tokens() do not see it. False if the spelling is already taken.
  bool add_alias(std::string alias, Id id);
  // Heterogeneous: no std::string is built per lookup.
  std::optional<Id> find(std::string_view token) const;
  bool contains(std::string_view token) const { return find(token).has_value(); }
  // The id of token, or UnknownTokenError with up to five close spellings.
  Id require(std::string_view token) const;
  // Up to `max` vocabulary tokens closest to `token` by edit distance (ties: lower id first).
  std::vector<std::string> suggest(std::string_view token, std::size_t max = 5) const;

  std::size_t size() const { return numbered_ ? numbered_size_ : tokens_.size(); }
  bool empty() const { return size() == 0; }
  // True while the tokens are "0" .. "n-1" made by numbered() (labels not yet materialised, no index).
  bool is_numbered() const { return numbered_; }
  // Row id's token. A numbered vocabulary makes all V labels on the first call (a reference must outlive it).
  const std::string& token(Id id) const;
  // The same as a copy: a numbered vocabulary spells just this id, so naming a few rows of a large table makes
  // no other label.
  std::string label(Id id) const;
  const std::vector<std::string>& tokens() const;
  bool has_counts() const { return has_counts_; }
  std::uint64_t count(Id id) const { return counts_.empty() ? 0 : counts_.at(static_cast<std::size_t>(id)); }
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  void truncate(std::size_t n);  // keep the first n tokens
  void reserve(std::size_t n);

 private:
  // Lazy state, shared by the const accessors (double-checked under `mutex`).
  struct Lazy {
    std::mutex mutex;
    std::atomic<bool> labels_ready{false};  // numbered: tokens_ holds the n labels
    std::atomic<bool> index_ready{false};   // slots_ indexes every token in tokens_
  };
  void materialise_labels() const;  // numbered: fill tokens_ once
  void ensure_index() const;        // build slots_ once
  void build_index() const;         // (caller holds the lock or owns the Vocab)
  void make_explicit();             // numbered -> stored tokens with an index (before a mutation)
  std::optional<Id> find_token(std::string_view token, std::uint64_t h) const;
  void insert_slot(std::uint64_t h, Id id) const;
  void grow_slots(std::size_t want) const;
  void copy_from(const Vocab& other);
  void take(Vocab& other) noexcept;  // both moves: other's state here, other left empty
  void ensure_lazy();                // a moved-from Vocab makes its lazy state on its next mutation

  bool numbered_ = false;
  std::size_t numbered_size_ = 0;
  mutable std::vector<std::string> tokens_;  // filled lazily for a numbered vocabulary
  std::vector<std::uint64_t> counts_;
  bool has_counts_ = false;
  // Open addressing, linear probing: each slot is (high 32 bits of the hash) << 32 | (id + 1); 0 is empty.
  mutable std::vector<std::uint64_t> slots_;
  mutable std::size_t reserved_ = 0;  // reserve()'s hint for the index
  std::unordered_map<std::string, Id, StringHash, std::equal_to<>> aliases_;
  std::unique_ptr<Lazy> lazy_;  // null only in an empty, moved-from Vocab
};

}  // namespace lumen
