#pragma once
// Pre-tokenization: text -> pieces by a regex (GPT-2's, Llama 3's, ...), before BPE runs inside each piece.
// PCRE2 with UTF + UCP, so \p{L}, \p{N} and \s are the real Unicode classes; JIT-compiled where available.
// Invalid UTF-8 never matches: the bytes between two matches become pieces of their own, so nothing is lost.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lumen::text {

// GPT-2's pattern (also r50k/p50k), and Llama 3's (also cl100k_base).
inline constexpr std::string_view kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
inline constexpr std::string_view kLlama3Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// One compiled pattern. Thread-safe: matching allocates its own match data.
class Regex {
 public:
  // literal: the pattern is a plain string, not a regex. Throws UsageError naming the offset of a syntax error.
  explicit Regex(std::string_view pattern, bool literal = false);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Appends the [begin, end) byte ranges of every non-overlapping match in text, left to right.
  void find_all(std::string_view text, std::vector<std::pair<std::size_t, std::size_t>>& out) const;
  const std::string& pattern() const { return pattern_; }
  bool jit() const { return jit_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string pattern_;
  bool jit_ = false;
};

// What a split does with the matches (Hugging Face's SplitDelimiterBehavior; the two byte-level BPEs use).
enum class SplitBehavior {
  isolated,  // matches and the text between them are all pieces
  removed,   // only the text between matches is kept
};

// A sequence of regex splits, each applied to every piece the previous one produced.
class Pretokenizer {
 public:
  void add_split(std::string_view pattern, bool literal = false, SplitBehavior behavior = SplitBehavior::isolated);
  bool empty() const { return stages_.empty(); }
  std::size_t stages() const { return stages_.size(); }
  const std::string& pattern(std::size_t stage) const { return stages_.at(stage).regex.pattern(); }
  // Pieces of text, as views into it, in order; empty pieces are dropped. No stages: the whole text.
  void split(std::string_view text, std::vector<std::string_view>& pieces) const;

 private:
  struct Stage {
    Regex regex;
    SplitBehavior behavior;
  };
  std::vector<Stage> stages_;
};

}  // namespace lumen::text
