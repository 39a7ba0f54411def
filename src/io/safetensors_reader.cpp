// safetensors: an 8-byte little-endian header length N, N bytes of JSON {name: {dtype, shape, data_offsets}},
// then the byte buffer the offsets point into. The embedding matrix is borrowed from the mapped file.
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "io/readers.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io::detail {

namespace {

// Conventional names of the token embedding in Hugging Face checkpoints (GPT-2, Llama, BERT, ...).
constexpr std::string_view kConventional[] = {"wte.weight", "transformer.wte.weight", "model.embed_tokens.weight",
                                              "tok_embeddings.weight", "embeddings.word_embeddings.weight"};
// Conventional names of an untied checkpoint's output head W (V, d): GPT-2/Llama/Mistral, GPT-NeoX, Meta's Llama.
constexpr std::string_view kHeadConventional[] = {"lm_head.weight", "embed_out.weight", "output.weight"};

struct TensorInfo {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t begin = 0, end = 0;
};

std::size_t dtype_bytes(const std::string& d) {
  if (d == "F64" || d == "I64" || d == "U64") return 8;
  if (d == "F32" || d == "I32" || d == "U32") return 4;
  if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
  if (d == "I8" || d == "U8" || d == "BOOL" || d == "F8_E4M3" || d == "F8_E5M2") return 1;
  return 0;
}

}  // namespace

Table read_safetensors(const ReadContext& cx) {
  const std::string& name = cx.name();
  const char* const base = cx.file->data();
  const std::uint64_t size = cx.file->size();
  if (size < 8) throw ParseError(name, 0, 0, fmt::format("file of {} bytes; expected an 8-byte header length", size));
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(base[i]);
  if (n > size - 8)
    throw ParseError(
        name, 0, 0,
        fmt::format("header length {} exceeds the {} bytes after it; expected a safetensors file", n, size - 8));
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(base + 8, base + 8 + n);
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError(name, 0, 8 + (e.byte > 0 ? e.byte - 1 : 0), fmt::format("invalid JSON header: {}", e.what()));
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double (out_of_range 406)
    throw ParseError(name, 0, 8, fmt::format("invalid JSON header: {}", e.what()));
  }
  if (!header.is_object()) throw ParseError(name, 0, 8, "expected the JSON header to be an object");
  const std::uint64_t buffer = size - 8 - n;
  const char* const data = base + 8 + n;

  std::vector<TensorInfo> tensors;
  for (auto& item : header.items()) {
    const std::string& key = item.key();  // (a plain variable: lambdas may not capture structured bindings in C++20)
    auto& v = item.value();
    if (key == "__metadata__") continue;
    const auto bad = [&](const std::string& what) {
      return ParseError(name, 0, 8, fmt::format("tensor '{}': {}", key, what));
    };
    if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets"))
      throw bad("expected an object with dtype, shape and data_offsets");
    TensorInfo t;
    t.name = key;
    if (!v["dtype"].is_string()) throw bad("expected dtype to be a string");
    t.dtype = v["dtype"].get<std::string>();
    const std::size_t esz = dtype_bytes(t.dtype);
    if (esz == 0) throw bad(fmt::format("unknown dtype '{}'", t.dtype));
    if (!v["shape"].is_array()) throw bad("expected shape to be an array");
    std::uint64_t elems = 1;
    for (auto& s : v["shape"]) {
      if (!s.is_number_unsigned()) throw bad("expected shape entries to be non-negative integers");
      const auto k = s.get<std::uint64_t>();
      if (k != 0 && elems > UINT64_MAX / k) throw bad("shape product overflows");
      elems *= k;
      t.shape.push_back(k);
    }
    const auto& off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
      throw bad("expected data_offsets to be [begin, end]");
    t.begin = off[0].get<std::uint64_t>();
    t.end = off[1].get<std::uint64_t>();
    if (t.begin > t.end || t.end > buffer)
      throw bad(fmt::format("data_offsets [{}, {}] outside the {}-byte buffer", t.begin, t.end, buffer));
    if (elems > UINT64_MAX / esz || elems * esz != t.end - t.begin)
      throw bad(fmt::format("data_offsets span {} bytes; shape and dtype {} need {}", t.end - t.begin, t.dtype,
                            elems > UINT64_MAX / esz ? std::string("more") : std::to_string(elems * esz)));
    tensors.push_back(std::move(t));
  }
  // Tensors may not overlap (the format forbids it; overlapping views would alias).
  std::vector<const TensorInfo*> sorted;
  sorted.reserve(tensors.size());
  for (auto& t : tensors) sorted.push_back(&t);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i]->begin < sorted[i - 1]->end && sorted[i]->begin != sorted[i]->end &&
        sorted[i - 1]->begin != sorted[i - 1]->end)
      throw ParseError(
          name, 0, 8 + n + sorted[i]->begin,
          fmt::format("tensors '{}' and '{}' overlap in the buffer", sorted[i - 1]->name, sorted[i]->name));

  // Which tensor: the one asked for, else a conventional name, else the only 2-D float tensor.
  const TensorInfo* chosen = nullptr;
  const auto find = [&](std::string_view want) -> const TensorInfo* {
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
      throw InputError(fmt::format(
          "{}: no output head tensor ({}); a tied checkpoint keeps a single table (its output head is its input "
          "table E), or name the head with --tensor; 2-D tensors here: {}",
          name, fmt::join(kHeadConventional, ", "),
          candidates.empty() ? std::string("none") : fmt::format("{}", fmt::join(candidates, ", "))));
  } else {
    for (auto want : kConventional)
      if ((chosen = find(want)) != nullptr) break;
    if (chosen == nullptr && candidates.size() == 1) chosen = find(candidates[0]);
    if (chosen == nullptr)
      throw InputError(
          fmt::format("{}: no conventional embedding tensor ({}); choose one with --tensor from: {}", name,
                      fmt::join(kConventional, ", "),
                      candidates.empty() ? std::string("none") : fmt::format("{}", fmt::join(candidates, ", "))));
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
