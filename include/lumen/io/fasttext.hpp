#pragma once
// A fastText model (.bin): its dictionary and input matrix, giving word vectors exactly as
// `fasttext print-word-vectors` computes them: the mean of the word's own row and its character n-gram rows
// (hashed into `bucket` rows), so out-of-vocabulary words get vectors too.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lumen/core/subword_model.hpp"

namespace lumen::io {

class FastTextModel : public SubwordModel {
 public:
  // Reads the model (the matrix stays in the mapped file). Throws ParseError/IoError.
  static FastTextModel load(const std::string& path);
  // From bytes in memory (kept alive by `keepalive`); `name` is used in messages.
  static FastTextModel parse(const char* data, std::size_t size, const std::string& name,
                             std::shared_ptr<const void> keepalive);

  std::size_t dim() const { return dim_; }
  std::size_t nwords() const { return static_cast<std::size_t>(nwords_); }
  const std::string& word(std::size_t i) const { return words_.at(i); }
  int minn() const { return minn_; }
  int maxn() const { return maxn_; }
  std::int64_t bucket() const { return bucket_; }

  // Rows of the input matrix that make up `word` (its own id if known, then its n-grams' rows).
  std::vector<std::int64_t> subwords(std::string_view word) const;
  // out (dim floats) = mean of those rows; zero if there are none.
  void word_vector(std::string_view word, float* out) const;
  std::vector<float> word_vector(std::string_view word) const;
  // SubwordModel: word_vector, or false if the word has no rows at all (out.size() must be dim()).
  bool subword_vector(std::string_view word, std::span<float> out) const override;

  // fastText's string hash: FNV-1a over the bytes, each sign-extended from int8 as fastText does.
  static std::uint32_t hash(std::string_view s);

 private:
  void ngrams(const std::string& word, std::vector<std::int64_t>& out) const;  // word with "<" ">" around it
  void add_row(std::int64_t r, float* out) const;

  std::size_t dim_ = 0;
  int minn_ = 0, maxn_ = 0;
  std::int64_t bucket_ = 0;
  std::int32_t nwords_ = 0;
  std::int64_t prune_size_ = -1;
  std::unordered_map<std::int32_t, std::int32_t> prune_;
  std::vector<std::string> words_;
  std::unordered_map<std::string, std::int32_t> ids_;
  const char* input_ = nullptr;  // (nwords + bucket, dim) float32, possibly unaligned
  std::int64_t input_rows_ = 0;
  std::shared_ptr<const void> keepalive_;
};

}  // namespace lumen::io
