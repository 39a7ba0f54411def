#pragma once
// Token strings <-> ids, with optional counts (frequency-sorted vocabularies keep them).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lumen {

using Id = std::int64_t;

class Vocab {
 public:
  Vocab() = default;
  // Tokens "0", "1", ... "n-1": rows labelled by id until a tokenizer names them.
  static Vocab numbered(std::size_t n);

  // Appends a token and returns its id; a duplicate is not added and returns std::nullopt.
  std::optional<Id> add(std::string token, std::uint64_t count = 0);
  // Another spelling find() accepts for an existing id (a tokenizer's " cat" and "Ġcat" for the row labelled
  // "␣cat"); not a token: size() and tokens() do not see it. False if the spelling is already taken.
  bool add_alias(std::string alias, Id id);
  std::optional<Id> find(std::string_view token) const;
  // The id of token, or UnknownTokenError with up to five close spellings.
  Id require(std::string_view token) const;
  // Up to `max` vocabulary tokens closest to `token` by edit distance (ties: lower id first).
  std::vector<std::string> suggest(std::string_view token, std::size_t max = 5) const;

  std::size_t size() const { return tokens_.size(); }
  bool empty() const { return tokens_.empty(); }
  const std::string& token(Id id) const { return tokens_.at(static_cast<std::size_t>(id)); }
  const std::vector<std::string>& tokens() const { return tokens_; }
  bool has_counts() const { return has_counts_; }
  std::uint64_t count(Id id) const { return counts_.empty() ? 0 : counts_.at(static_cast<std::size_t>(id)); }
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  void truncate(std::size_t n);  // keep the first n tokens
  void reserve(std::size_t n);

 private:
  std::vector<std::string> tokens_;
  std::vector<std::uint64_t> counts_;
  bool has_counts_ = false;
  std::unordered_map<std::string, Id> index_;
};

}  // namespace lumen
