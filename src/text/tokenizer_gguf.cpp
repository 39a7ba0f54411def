// A GGUF file's own tokenizer (tokenizer.ggml.*): byte-level BPE ("gpt2", what llama.cpp calls GPT-2's and Llama
// 3's), tokens in their byte-level spelling, merges "A B" by rank, token_type 3 (control) and 4 (user-defined)
// matched in the text as a whole, and the pre-tokenizer named by tokenizer.ggml.pre.
#include <fmt/format.h>
#include <unordered_map>

#include "io/gguf_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/text/byte_level.hpp"
#include "lumen/text/tokenizer_files.hpp"

namespace lumen::text {

namespace {

const std::vector<io::GgufValue>* array_of(const io::GgufFile& g, std::string_view key, std::uint32_t element,
                                           const std::string& name, bool required) {
  const io::GgufValue* v = g.find(key);
  if (v == nullptr) {
    if (!required) return nullptr;
    throw InputError(
        fmt::format("{}: no {} (the file carries no tokenizer; name one with a tokenizer.json)", name, key));
  }
  const auto* items = std::get_if<std::vector<io::GgufValue>>(&v->value);
  if (items == nullptr || v->element_type != element)
    throw ParseError(name, 0, v->offset,
                     fmt::format("{}: expected an array of {}", key, element == 8 ? "strings" : "integers"));
  return items;
}

std::string string_of(const io::GgufFile& g, std::string_view key, const std::string& fallback) {
  const io::GgufValue* v = g.find(key);
  if (v == nullptr) return fallback;
  const auto* s = std::get_if<std::string>(&v->value);
  return s != nullptr ? *s : fallback;
}

}  // namespace

std::unique_ptr<Tokenizer> load_gguf_tokenizer(const std::string& path) {
  const io::GgufFile g = io::parse_gguf(io::MappedFile::open(path));
  const std::string model = string_of(g, "tokenizer.ggml.model", "");
  if (model != "gpt2")
    throw InputError(
        fmt::format("{}: tokenizer.ggml.model is '{}'; lumen reads byte-level BPE ('gpt2': GPT-2, "
                    "Llama 3), not SentencePiece ('llama') or others",
                    path, model));
  const auto& tokens = *array_of(g, "tokenizer.ggml.tokens", 8, path, true);
  const auto* types = array_of(g, "tokenizer.ggml.token_type", 5, path, false);
  const auto* merges = array_of(g, "tokenizer.ggml.merges", 8, path, true);
  if (types != nullptr && types->size() != tokens.size())
    throw ParseError(
        path, 0, g.find("tokenizer.ggml.token_type")->offset,
        fmt::format("tokenizer.ggml.token_type has {} entries for {} tokens", types->size(), tokens.size()));

  BpeModel bpe;
  bpe.tokens.resize(tokens.size());
  std::vector<AddedToken> added;
  std::unordered_map<std::string, Id> by_spelling;
  for (std::size_t id = 0; id < tokens.size(); ++id) {
    const std::string& spelled = std::get<std::string>(tokens[id].value);
    const std::int64_t type = types == nullptr ? 1 : std::get<std::int64_t>((*types)[id].value);
    if (type == 3 || type == 4) {  // control, user-defined: matched as a whole
      added.push_back(AddedToken{spelled, static_cast<Id>(id), type == 3});
      continue;
    }
    if (type == 5) continue;  // unused
    auto raw = from_byte_level(spelled);
    if (!raw)
      throw ParseError(path, 0, tokens[id].offset,
                       fmt::format("token {} \"{}\" is not a byte-level spelling", id, spelled));
    bpe.tokens[id] = std::move(*raw);
    by_spelling.emplace(spelled, static_cast<Id>(id));
  }
  bpe.merges.reserve(merges->size());
  for (const auto& m : *merges) {
    const std::string& line = std::get<std::string>(m.value);
    const auto sp = line.find(' ');
    const auto a = sp == std::string::npos ? by_spelling.end() : by_spelling.find(line.substr(0, sp));
    const auto b = sp == std::string::npos ? by_spelling.end() : by_spelling.find(line.substr(sp + 1));
    if (a == by_spelling.end() || b == by_spelling.end())
      throw ParseError(path, 0, m.offset, fmt::format("merge \"{}\": expected two tokens of the vocabulary", line));
    bpe.merges.push_back({a->second, b->second});
  }

  const std::string pre_name = string_of(g, "tokenizer.ggml.pre", "default");
  Pretokenizer pre;
  if (pre_name == "gpt-2" || pre_name == "default") {
    pre.add_split(kGpt2Pattern);
  } else if (pre_name == "llama-bpe" || pre_name == "llama3") {
    pre.add_split(kLlama3Pattern);
    bpe.whole_piece_first = true;  // Llama 3's tokenizer.json: ignore_merges
  } else {
    throw InputError(
        fmt::format("{}: tokenizer.ggml.pre is '{}'; lumen knows 'gpt-2' and 'llama-bpe'", path, pre_name));
  }
  auto tok = std::make_unique<Tokenizer>(std::move(bpe), std::move(pre), std::move(added));
  tok->source = path;
  tok->kind = "gguf";
  return tok;
}

}  // namespace lumen::text
