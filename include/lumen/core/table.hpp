#pragma once
// The one idea: a vocabulary (token <-> id) and a matrix E (V x d), row i the vector of token i.
#include <memory>
#include <string>

#include "lumen/core/matrix.hpp"
#include "lumen/core/subword_model.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen {

struct Table {
  Vocab vocab;
  Matrix E;            // (V, d)
  std::string source;  // where it came from (a path, "toy", "default")
  std::string format;  // the format it was read from ("word2vec-text", "glove", ...)
  // Vectors for words outside the vocabulary (a fastText model's n-grams); null for formats without them.
  std::shared_ptr<const SubwordModel> subwords;

  std::size_t V() const { return E.rows(); }
  std::size_t d() const { return E.cols(); }
};

}  // namespace lumen
