#pragma once
// A table and its tokenizer together: rows labelled by their token ("␣cat" for GPT-2's row 3797), and the
// other spellings a user may type (" cat", "Ġcat") kept as vocabulary aliases, so every command finds them.
#include <memory>
#include <string>

#include "lumen/core/table.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::text {

// The tokenizer a table goes with. option: a path (tokenizer.json, encoder.json, or a directory), "none", or
// empty: a tokenizer.json beside the table file when the table's rows have no names of their own
// (a checkpoint's embedding: rows "0", "1", ...). nullptr when there is none.
std::unique_ptr<Tokenizer> tokenizer_for_table(const std::string& option, const std::string& table_path,
                                               const Table& table);

// Relabels the rows of table by token. A table with more rows than the tokenizer has ids (padded vocabularies)
// gets "<unused:N>" for the rest; one with fewer rows is an InputError unless `limited` (read with --limit).
void label_rows(Table& table, const Tokenizer& tokenizer, bool limited = false);

// True if the vocabulary is "0", "1", ..., "V-1" (rows not named by their file).
bool rows_are_numbered(const Vocab& vocab);

}  // namespace lumen::text
