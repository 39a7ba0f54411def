// GGUF: a model's token table, token_embd.weight (ne = {d, V}), its rows labelled by tokenizer.ggml.tokens.
// F32, F16 and BF16 rows are borrowed from the map; quantised rows (Q8_0, Q4_0, Q4_K, Q6_K) are dequantised as
// ggml does, row by row, into the table's storage type.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/gguf_file.hpp"
#include "io/readers.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io::detail {

namespace {

constexpr std::string_view kTokenTable = "token_embd.weight";
constexpr std::string_view kOutputHead = "output.weight";

const GgufTensor& choose_tensor(const GgufFile& g, const ReadContext& cx) {
  std::vector<std::string> candidates;
  for (const auto& t : g.tensors)
    if (t.ne.size() == 2) candidates.push_back(t.name);
  const std::string listed = candidates.empty() ? std::string("none") : fmt::format("{}", fmt::join(candidates, ", "));
  const std::string& name = cx.name();
  if (!cx.options.tensor.empty()) {
    if (const GgufTensor* t = g.tensor(cx.options.tensor)) return *t;
    throw InputError(fmt::format("{}: no tensor '{}'; 2-D tensors here: {}", name, cx.options.tensor, listed));
  }
  if (cx.options.output_head) {
    if (const GgufTensor* t = g.tensor(kOutputHead)) return *t;
    throw InputError(OptionText{
        fmt::format("{}: no output head tensor ({}); a tied model keeps a single table (its output head is its input "
                    "table E), or name the head with {{tensor}}; 2-D tensors here: {}",
                    name, kOutputHead, listed),
        {"tensor"}});
  }
  if (const GgufTensor* t = g.tensor(kTokenTable)) return *t;
  throw InputError(OptionText{
      fmt::format("{}: no token table ({}); choose a tensor with {{tensor}} from: {}", name, kTokenTable, listed),
      {"tensor"}});
}

// The token strings, one per row, or empty when the file has none.
std::vector<std::string_view> token_labels(const GgufFile& g, std::size_t V, std::size_t rows, const ReadContext& cx) {
  const GgufValue* tokens = g.find("tokenizer.ggml.tokens");
  if (tokens == nullptr) return {};
  const auto* items = std::get_if<std::vector<GgufValue>>(&tokens->value);
  if (items == nullptr || tokens->element_type != 8)
    throw ParseError(cx.name(), 0, tokens->offset, "tokenizer.ggml.tokens: expected an array of strings");
  if (items->size() != V)
    throw ParseError(cx.name(), 0, tokens->offset,
                     fmt::format("tokenizer.ggml.tokens holds {} tokens for a table of {} rows", items->size(), V));
  std::vector<std::string_view> words;
  words.reserve(rows);
  for (std::size_t i = 0; i < rows; ++i) words.push_back(std::get<std::string>((*items)[i].value));
  return words;
}

}  // namespace

Table read_gguf(const ReadContext& cx) {
  const GgufFile g = parse_gguf(cx.file);
  const GgufTensor& t = choose_tensor(g, cx);
  const std::string& name = cx.name();
  if (t.ne.size() != 2)
    throw InputError(
        fmt::format("{}: tensor '{}' has {} dimensions; expected a 2-D (V, d) matrix", name, t.name, t.ne.size()));
  if (t.ne[0] == 0 || t.ne[1] == 0)
    throw ParseError(name, 0, t.info_offset,
                     fmt::format("tensor '{}' has shape [{}, {}] (V, d), an empty table; expected V >= 1 rows and "
                                 "d >= 1 columns",
                                 t.name, t.ne[1], t.ne[0]));
  if (!t.type.readable)
    throw InputError(fmt::format("{}: tensor '{}' is {}; lumen reads F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K", name,
                                 t.name, t.type.name));
  cx.report.tensor = t.name;
  const auto V = static_cast<std::size_t>(t.ne[1]), d = static_cast<std::size_t>(t.ne[0]);
  const std::size_t rows = limited(V, cx.options.limit);
  cx.report.rows_read = rows;
  const char* data = cx.file->data() + t.begin;
  Table out;
  if (t.type.id == 0 || t.type.id == 1 || t.type.id == 30) {
    const DType from = t.type.id == 0 ? DType::f32 : t.type.id == 1 ? DType::f16 : DType::bf16;
    out.E = view_or_convert(cx, data, rows, d, from);
  } else {
    Matrix E(rows, d, DType::f32);
    const std::size_t row_bytes = d / t.type.block * t.type.block_bytes;
    for (std::size_t r = 0; r < rows; ++r) dequantize_row(t.type, data + r * row_bytes, E.row_mut(r).data(), d);
    cx.report.quantisation = std::string(t.type.name);
    out.E = cx.options.dtype == DType::f32 ? std::move(E) : E.to(cx.options.dtype);
  }
  const std::vector<std::string_view> words = token_labels(g, V, rows, cx);
  if (words.empty()) {
    out.vocab = Vocab::numbered(rows);
    return out;
  }
  return assemble(words, std::move(out.E), cx, [&t](std::size_t) { return Location{0, t.info_offset}; });
}

}  // namespace lumen::io::detail
