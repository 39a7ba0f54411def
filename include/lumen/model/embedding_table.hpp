#pragma once
// A model's token embedding E as a table, rows labelled by its tokenizer ("␣bank"), so that every table view (the
// explorer's token, similarity, map) works on the model a user loaded for its blocks.
#include <memory>
#include <string>

#include "lumen/core/table.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// E is borrowed, not copied: the table keeps `model` alive. source: where the model came from (its directory).
// Throws InputError if the tokenizer's size is not V.
Table embedding_table(std::shared_ptr<const Transformer> model, const text::Tokenizer& tokenizer,
                      const std::string& source);

}  // namespace lumen::model
