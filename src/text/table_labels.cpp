#include "lumen/text/table_labels.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/text/byte_level.hpp"
#include "lumen/text/tokenizer_files.hpp"

namespace lumen::text {

bool rows_are_numbered(const Vocab& vocab) {
  const std::size_t n = vocab.size();
  if (n == 0) return false;
  if (vocab.is_numbered()) return true;
  for (std::size_t i : {std::size_t{0}, n / 2, n - 1})
    if (vocab.token(static_cast<Id>(i)) != std::to_string(i)) return false;
  return true;
}

std::unique_ptr<Tokenizer> tokenizer_for_table(const std::string& option, const std::string& table_path,
                                               const Table& table) {
  if (option == "none") return nullptr;
  if (!option.empty()) return load_tokenizer(option);
  if (table_path.empty() || !rows_are_numbered(table.vocab)) return nullptr;
  if (auto beside = tokenizer_beside(table_path)) return load_tokenizer_json(*beside);
  return nullptr;
}

void label_rows(Table& table, const Tokenizer& tok, bool limited) {
  const std::size_t V = table.V();
  if (tok.size() > V && !limited)
    throw InputError(
        fmt::format("the tokenizer ({}) has {} ids but the table {} has {} rows: not this table's tokenizer?",
                    tok.source, tok.size(), table.source, V));
  Vocab vocab;
  vocab.reserve(V);
  std::vector<Id> raw_alias;  // ids whose raw bytes / byte-level spelling differ from their label
  for (std::size_t i = 0; i < V; ++i) {
    const Id id = static_cast<Id>(i);
    std::string label = tok.has(id) ? tok.label(id) : fmt::format("<unused:{}>", i);
    // A label taken by an earlier row (a token literally spelled "␣x"): fall back to the byte-level spelling.
    if (vocab.find(label)) label = to_byte_level(tok.piece(id));
    if (vocab.find(label)) label = fmt::format("{}#{}", label, i);
    if (!vocab.add(label, table.vocab.has_counts() ? table.vocab.count(id) : 0))
      throw InputError(fmt::format("row {}: cannot give it a unique label", i));
  }
  // Aliases after every label exists, so a label always wins over another token's alias.
  for (std::size_t i = 0; i < V; ++i) {
    const Id id = static_cast<Id>(i);
    if (!tok.has(id) || tok.is_added(id)) continue;
    const std::string& raw = tok.piece(id);
    if (raw != vocab.token(id)) vocab.add_alias(raw, id);
    const std::string spelled = to_byte_level(raw);
    if (spelled != vocab.token(id)) vocab.add_alias(spelled, id);
  }
  table.vocab = std::move(vocab);
}

}  // namespace lumen::text
