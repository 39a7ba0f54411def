#pragma once
// "'a' and 'an': interchangeable as inputs, never interchangeable as predictions." An untied model keeps two
// tables, E (read as input) and the output head (scored as prediction); for article and function-word pairs the
// claim says E puts the two words closer than the head does. These are the rows `lumen compare --heads` compares.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lumen/model/weights.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// a/an, the/a, this/that, ...: pairs that play one role in a sentence but are followed by different words.
const std::vector<std::pair<std::string, std::string>>& function_word_pairs();

struct PairCosine {
  std::string a, b;
  std::int32_t a_id = 0, b_id = 0;  // their tokens
  double input = 0, head = 0;       // the cosine of their rows in E and in the output head
};

// The pairs whose words are one token each as read inside a sentence (" a": GPT-2's "␣a") and pass `keep` (e.g.
// occur in the training corpus; empty: all), with their cosines. InputError for tied weights (no head of its own)
// or weights not of V x C.
std::vector<PairCosine> input_head_cosines(const Weights& w, std::size_t V, std::size_t C,
                                           const text::Tokenizer& tokenizer,
                                           const std::vector<std::pair<std::string, std::string>>& pairs,
                                           const std::function<bool(std::int32_t)>& keep = {});

}  // namespace lumen::model
