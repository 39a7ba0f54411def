#pragma once
// A text as tokens, spelled once for `lumen tokenize --json` (each of its "texts", and --decode) and the server's
// /api/tokenize:
//   {"text", "ids": [id, ...], "tokens": [{"id", "text" (the token's own bytes), "display" (its label: ␣ for a
//   leading space, <0x8D> for a lone byte)}]}
// A token's "id" is null when it is not below `rows` (the server's table has no row for it); "ids" keeps it.
#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lumen/text/tokenizer.hpp"

namespace lumen::text {

nlohmann::json tokenized_json(const Tokenizer& tok, const std::string& text, const std::vector<Id>& ids,
                              std::size_t rows = std::numeric_limits<std::size_t>::max());

}  // namespace lumen::text
