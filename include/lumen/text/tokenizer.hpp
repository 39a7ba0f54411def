#pragma once
// A byte-level BPE tokenizer (GPT-2, Llama 3): text -> pieces (a regex) -> bytes -> token ids by merges.
//   encode: "The cat sat" -> ids [464, 3797, 3332] (GPT-2); decode(encode(s)) == s for any byte string s.
// Loaders live in tokenizer_files.hpp; this class only holds the model and runs it.
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lumen/core/vocab.hpp"
#include "lumen/text/pretokenizer.hpp"

namespace lumen::text {

// A token matched in the raw text before pre-tokenization (<|endoftext|>, <|begin_of_text|>, ...).
struct AddedToken {
  std::string content;
  Id id = 0;
  bool special = true;
};

struct BpeModel {
  std::vector<std::string> tokens;        // raw bytes by id; "" for an id the model does not use
  std::vector<std::array<Id, 2>> merges;  // by rank: merges[r] = {a, b} makes the token tokens[a] + tokens[b]
  // tiktoken's rule instead of a merge list: any two adjacent parts whose concatenation is a token merge,
  // the lowest id first (GPT-2's files give the same ids either way on ordinary text; js-tiktoken uses this).
  bool merge_by_token_rank = false;
  // A piece that is itself a token is that token, without running the merges (tiktoken; HF's ignore_merges).
  bool whole_piece_first = false;
  bool add_prefix_space = false;  // HF ByteLevel(add_prefix_space): " " before text not starting with one
};

class Tokenizer {
 public:
  // Throws InputError if a byte has no token of its own (not a byte-level vocabulary) or a merge names a
  // missing id. added: tokens matched in the text as a whole (their ids may lie beyond model.tokens).
  Tokenizer(BpeModel model, Pretokenizer pre, std::vector<AddedToken> added = {});
  ~Tokenizer();

  // ids of text. specials: find the added tokens in the text (as Hugging Face does; tiktoken's
  // allowed_special="all"); false: they are ordinary text.
  std::vector<Id> encode(std::string_view text, bool specials = true) const;
  void encode(std::string_view text, std::vector<Id>& out, bool specials = true) const;
  // The bytes of ids, concatenated. Throws IdError (id, position) for an id outside the vocabulary.
  std::string decode(std::span<const Id> ids) const;

  // Number of ids: one past the largest id of a token or an added token.
  std::size_t size() const { return pieces_.size(); }
  bool has(Id id) const { return id >= 0 && static_cast<std::size_t>(id) < pieces_.size() && !pieces_[id].empty(); }
  // The raw bytes of id (an added token: its content). Throws IdError.
  const std::string& piece(Id id) const;
  bool is_added(Id id) const;
  // How the piece reads on a terminal: " cat" -> "␣cat", "\n" -> "↵" (see display.hpp).
  std::string label(Id id) const;
  // The id a user means by text: a token's bytes (" cat"), its label ("␣cat"), its byte-level spelling
  // ("Ġcat"), or an added token's content. nullopt if none.
  std::optional<Id> find(std::string_view text) const;
  const std::vector<AddedToken>& added() const { return added_; }
  const Pretokenizer& pretokenizer() const { return pre_; }
  const BpeModel& model() const { return model_; }  // what a GGUF's tokenizer.ggml.tokens and merges are made of

  std::string source;  // where it was loaded from
  std::string kind;    // "gpt2-files" or "tokenizer.json"

 private:
  void encode_ordinary(std::string_view text, std::vector<Id>& out) const;
  void encode_piece(std::string_view piece, std::vector<Id>& out) const;
  void merge(std::string_view piece, std::vector<Id>& out) const;
  void merge_long(std::string_view piece, std::vector<Id>& out) const;

  // Not noexcept on purpose: libstdc++ then keeps each node's hash, and a probe along a bucket compares hashes
  // instead of hashing every key it passes (a third of building GPT-2's index went there).
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Index = std::unordered_map<std::string, Id, Hash, std::equal_to<>>;
  struct PairTable;

  BpeModel model_;
  Pretokenizer pre_;
  std::vector<AddedToken> added_;
  std::vector<std::string> pieces_;  // by id: model tokens and added tokens' contents
  std::vector<char> added_flag_;     // by id
  Index index_;                      // model token bytes -> id
  std::array<Id, 256> byte_id_{};
  std::unique_ptr<PairTable> pairs_;
  std::unique_ptr<Regex> added_regex_;
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<std::string, std::vector<Id>, Hash, std::equal_to<>> cache_;
};

}  // namespace lumen::text
