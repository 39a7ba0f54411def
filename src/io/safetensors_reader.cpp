// safetensors: an 8-byte little-endian header length N, N bytes of JSON {name: {dtype, shape, data_offsets}},
// then the byte buffer the offsets point into. The embedding matrix is borrowed from the mapped file.
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "io/readers.hpp"
#include "io/safetensors_file.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io::detail {

namespace {

// Conventional names of the token embedding in Hugging Face checkpoints (GPT-2, Llama, BERT, ...).
constexpr std::string_view kConventional[] = {"wte.weight", "transformer.wte.weight", "model.embed_tokens.weight",
                                              "tok_embeddings.weight", "embeddings.word_embeddings.weight"};
// Conventional names of an untied checkpoint's output head W (V, d): GPT-2/Llama/Mistral, GPT-NeoX, Meta's Llama.
constexpr std::string_view kHeadConventional[] = {"lm_head.weight", "embed_out.weight", "output.weight"};

}  // namespace

Table read_safetensors(const ReadContext& cx) {
  const std::string& name = cx.name();
  const SafetensorsFile parsed = parse_safetensors(cx.file);
  const std::vector<SafetensorsTensor>& tensors = parsed.tensors;
  const char* const data = parsed.buffer();
  nlohmann::json header = nlohmann::json::object();
  if (!parsed.metadata.empty()) header["__metadata__"] = nlohmann::json::parse(parsed.metadata);

  // Which tensor: the one asked for, else a conventional name, else the only 2-D float tensor.
  const SafetensorsTensor* chosen = nullptr;
  const auto find = [&](std::string_view want) -> const SafetensorsTensor* {
    for (auto& t : tensors)
      if (t.name == want) return &t;
    return nullptr;
  };
  std::vector<std::string> candidates;
  for (auto& t : tensors)
    if (t.shape.size() == 2) candidates.push_back(t.name);
  if (!cx.options.tensor.empty()) {
    chosen = find(cx.options.tensor);
    if (chosen == nullptr)
      throw InputError(
          fmt::format("{}: no tensor '{}'; 2-D tensors here: {}", name, cx.options.tensor,
                      candidates.empty() ? std::string("none") : fmt::format("{}", fmt::join(candidates, ", "))));
  } else if (cx.options.output_head) {
    for (auto want : kHeadConventional)
      if ((chosen = find(want)) != nullptr) break;
    if (chosen == nullptr)
      throw InputError(OptionText{
          fmt::format("{}: no output head tensor ({}); a tied checkpoint keeps a single table (its output head is its "
                      "input table E), or name the head with {{tensor}}; 2-D tensors here: {}",
                      name, fmt::join(kHeadConventional, ", "),
                      candidates.empty() ? std::string("none") : fmt::format("{}", fmt::join(candidates, ", "))),
          {"tensor"}});
  } else {
    for (auto want : kConventional)
      if ((chosen = find(want)) != nullptr) break;
    if (chosen == nullptr && candidates.size() == 1) chosen = find(candidates[0]);
    if (chosen == nullptr)
      throw InputError(OptionText{
          fmt::format("{}: no conventional embedding tensor ({}); choose one with {{tensor}} from: {}", name,
                      fmt::join(kConventional, ", "),
                      candidates.empty() ? std::string("none") : fmt::format("{}", fmt::join(candidates, ", "))),
          {"tensor"}});
  }
  if (chosen->shape.size() != 2)
    throw InputError(fmt::format("{}: tensor '{}' has {} dimensions; expected a 2-D (V, d) matrix", name, chosen->name,
                                 chosen->shape.size()));
  DType from;
  if (chosen->dtype == "F32") from = DType::f32;
  else if (chosen->dtype == "F16") from = DType::f16;
  else if (chosen->dtype == "BF16") from = DType::bf16;
  else
    throw InputError(
        fmt::format("{}: tensor '{}' is {}; expected F32, F16 or BF16", name, chosen->name, chosen->dtype));
  if (chosen->shape[0] == 0 || chosen->shape[1] == 0)
    throw ParseError(name, 0, 8,
                     fmt::format("tensor '{}' has shape [{}, {}], an empty table; expected V >= 1 rows and d >= 1 "
                                 "columns",
                                 chosen->name, chosen->shape[0], chosen->shape[1]));
  cx.report.tensor = chosen->name;
  const std::size_t V = static_cast<std::size_t>(chosen->shape[0]), d = static_cast<std::size_t>(chosen->shape[1]);
  const std::size_t rows = limited(V, cx.options.limit);
  cx.report.rows_read = rows;

  Table t;
  t.E = view_or_convert(cx, data + chosen->begin, rows, d, from);
  // Rows are named by id unless lumen wrote the file with its vocabulary in the metadata.
  if (header.contains("__metadata__") && header["__metadata__"].is_object() &&
      header["__metadata__"].contains("lumen.vocab") && header["__metadata__"]["lumen.vocab"].is_string() &&
      header["__metadata__"].value("lumen.tensor", std::string()) == chosen->name) {
    nlohmann::json tokens;
    try {
      tokens = nlohmann::json::parse(header["__metadata__"]["lumen.vocab"].get<std::string>());
    } catch (const nlohmann::json::exception&) {
      throw ParseError(name, 0, 8, "__metadata__ lumen.vocab: expected a JSON array of tokens");
    }
    if (!tokens.is_array() || tokens.size() != V)
      throw ParseError(name, 0, 8, fmt::format("__metadata__ lumen.vocab: expected {} tokens", V));
    std::vector<std::string> owned;
    owned.reserve(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      if (!tokens[i].is_string()) throw ParseError(name, 0, 8, "__metadata__ lumen.vocab: expected strings");
      owned.push_back(tokens[i].get<std::string>());
    }
    std::vector<std::string_view> words(owned.begin(), owned.end());
    Table named = assemble(words, std::move(t.E), cx, [](std::size_t) { return Location{0, 8}; });
    return named;
  }
  t.vocab = Vocab::numbered(rows);
  return t;
}

}  // namespace lumen::io::detail
