#pragma once
// How a result names a row, in one place for every face (CLI --json, HTTP API): "token" is the vocabulary's entry
// (what a script types back), "display" how a person reads it (a tokenizer's label, "␣cat" for GPT-2's row 3797).
#include <functional>
#include <string>

#include "lumen/core/vocab.hpp"

namespace lumen {

// A row's display label; empty: the vocabulary token (a word table, or rows already labelled by their tokenizer).
using RowLabel = std::function<std::string(Id)>;

struct RowNames {
  const Vocab& vocab;
  RowLabel label;

  std::string token(Id id) const { return vocab.label(id); }
  std::string display(Id id) const { return label ? label(id) : vocab.label(id); }
};

}  // namespace lumen
