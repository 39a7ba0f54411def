#include "lumen/model/function_words.hpp"

#include <fmt/format.h>
#include <optional>
#include <span>

#include "lumen/core/cosine.hpp"
#include "lumen/core/error.hpp"

namespace lumen::model {

const std::vector<std::pair<std::string, std::string>>& function_word_pairs() {
  static const std::vector<std::pair<std::string, std::string>> kPairs = {
      {"a", "an"},  {"the", "a"},    {"this", "that"}, {"these", "those"}, {"he", "she"},   {"his", "her"},
      {"in", "on"}, {"to", "of"},    {"and", "or"},    {"is", "was"},      {"are", "were"}, {"has", "had"},
      {"at", "by"}, {"for", "with"}, {"it", "they"},   {"not", "never"},   {"some", "any"}, {"who", "which"}};
  return kPairs;
}

namespace {

std::optional<std::int32_t> one_token(const text::Tokenizer& tok, const std::string& word, std::size_t V) {
  const auto ids = tok.encode(" " + word);
  if (ids.size() != 1 || ids[0] < 0 || static_cast<std::size_t>(ids[0]) >= V) return std::nullopt;
  return static_cast<std::int32_t>(ids[0]);
}

std::span<const float> row(const Param& m, std::int32_t id, std::size_t C) {
  return {m.data() + static_cast<std::size_t>(id) * C, C};
}

}  // namespace

std::vector<PairCosine> input_head_cosines(const Weights& w, std::size_t V, std::size_t C, const text::Tokenizer& tok,
                                           const std::vector<std::pair<std::string, std::string>>& pairs,
                                           const std::function<bool(std::int32_t)>& keep) {
  if (w.lm_head.empty())
    throw InputError("the model is tied: its output head is E itself, so input and prediction rows cannot differ");
  if (w.wte.size() != V * C || w.lm_head.size() != V * C)
    throw InputError(
        fmt::format("E holds {} and the head {} values; V x C is {}", w.wte.size(), w.lm_head.size(), V * C));
  std::vector<PairCosine> out;
  for (const auto& [a, b] : pairs) {
    const auto ia = one_token(tok, a, V), ib = one_token(tok, b, V);
    if (!ia || !ib || *ia == *ib) continue;
    if (keep && (!keep(*ia) || !keep(*ib))) continue;
    out.push_back({a, b, *ia, *ib, cosine(row(w.wte, *ia, C), row(w.wte, *ib, C)),
                   cosine(row(w.lm_head, *ia, C), row(w.lm_head, *ib, C))});
  }
  return out;
}

}  // namespace lumen::model
