#pragma once
// A trained model's table, as its trainer hands it out: the vocabulary and a copy of one of the model's matrices.
#include <string>
#include <utility>

#include "lumen/core/matrix.hpp"
#include "lumen/core/table.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::train {

inline Table trained_table(const Vocab& vocab, const Matrix& E, std::string source) {
  Table t;
  t.vocab = vocab;
  t.E = E.clone();
  t.source = std::move(source);
  t.format = "trained";
  return t;
}

}  // namespace lumen::train
