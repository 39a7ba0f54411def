#include "lumen/text/tokens_json.hpp"

namespace lumen::text {

nlohmann::json tokenized_json(const Tokenizer& tok, const std::string& text, const std::vector<Id>& ids,
                              std::size_t rows) {
  nlohmann::json tokens = nlohmann::json::array();
  for (const Id id : ids) {
    const bool in_table = id >= 0 && static_cast<std::size_t>(id) < rows;
    tokens.push_back({{"id", in_table ? nlohmann::json(id) : nlohmann::json(nullptr)},
                      {"text", tok.piece(id)},
                      {"display", tok.label(id)}});
  }
  return {{"text", text}, {"ids", ids}, {"tokens", std::move(tokens)}};
}

}  // namespace lumen::text
