#pragma once
// Which rows of a table a map shows, and the order its labels are placed in: one choice for the CLI
// (`lumen project`), the explorer's projection route and Python's lumen.project. Each face looks its words up in its
// own way (a words file's lines, a tokenizer's labels, Python ints); the choice itself takes ids.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lumen/core/vocab.hpp"

namespace lumen::project {

struct RowChoice {
  std::optional<std::vector<Id>> listed;  // the rows named, in order (a repeat is kept once, where it first stands)
  std::size_t top = 0;        // without `listed`: the first `top` rows (a sorted table's most frequent; 0: all)
  std::vector<Id> highlight;  // rows always shown: each one missing is added at the end
};

// The rows, in map order, of a table of V rows. Ids are not range-checked here (make_map names a bad one).
std::vector<Id> choose_rows(std::size_t V, const RowChoice& choice);

// For each of `rows`: 1 if it is among `highlight`, else 0 (PlotData::highlight).
std::vector<std::uint8_t> highlight_mask(const std::vector<Id>& rows, const std::vector<Id>& highlight);

// The order a map's labels are placed in, as indices into `rows` (PlotData::priority): the most frequent word
// first, by count when the vocabulary has counts, else by row (a sorted table's order); ties keep the map order.
std::vector<std::int32_t> label_priority(const Vocab& vocab, const std::vector<Id>& rows);

// A word as a list writes it (a line of a words file, an item of a comma-separated list): the token as given, else
// the token without surrounding blanks (space, tab, CR, LF); UnknownTokenError (with suggestions) when neither is in
// the vocabulary.
Id find_listed_word(const Vocab& vocab, std::string_view word);

}  // namespace lumen::project
