#include "lumen/eval/allowed_vocab.hpp"

#include "lumen/core/text_fold.hpp"

namespace lumen::eval {

AllowedVocab::AllowedVocab(const Vocab& vocab, std::size_t restrict, bool case_insensitive)
    : vocab_(&vocab),
      rows_(restrict == 0 || restrict > vocab.size() ? vocab.size() : restrict),
      case_insensitive_(case_insensitive) {
  if (!case_insensitive_) return;
  folded_.reserve(rows_);
  for (std::size_t i = 0; i < rows_; ++i)
    folded_.try_emplace(fold(vocab.token(static_cast<Id>(i))), static_cast<Id>(i));  // first casing wins
}

std::string AllowedVocab::fold(std::string_view word) const {
  if (!case_insensitive_) return std::string(word);
  auto up = unicode_upper(word);
  return up ? std::move(*up) : std::string(word);
}

std::optional<Id> AllowedVocab::find(std::string_view word) const { return find_folded(fold(word)); }

std::optional<Id> AllowedVocab::find_folded(const std::string& folded) const {
  if (case_insensitive_) {
    const auto it = folded_.find(folded);
    if (it == folded_.end()) return std::nullopt;
    return it->second;
  }
  const auto id = vocab_->find(folded);
  if (!id || static_cast<std::size_t>(*id) >= rows_) return std::nullopt;
  return id;
}

}  // namespace lumen::eval
