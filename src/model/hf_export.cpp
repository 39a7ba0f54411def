// The Hugging Face GPT-2 directory writer (see hf_export.hpp).
#include "lumen/model/hf_export.hpp"

#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <utility>
#include <vector>

#include "lumen/core/atomic_dir.hpp"
#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/model/gpt_backprop.hpp"
#include "lumen/text/tokenizer_json.hpp"
#include "model/weight_copy.hpp"

namespace lumen::model {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

struct Tensor {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<float> data;
};

// A linear weight (out, in) as GPT-2's Conv1D keeps it, (in, out): one loaded in place from such a file already is.
std::vector<float> conv1d(const Param& w, std::size_t out, std::size_t in) {
  if (w.in_out()) return {w.begin(), w.end()};
  std::vector<float> t;
  append_transposed(t, w.data(), out, in);
  return t;
}

}  // namespace

std::string gpt2_config_json(const nn::ModelShape& s) {
  json j;
  j["architectures"] = {"GPT2LMHeadModel"};
  j["model_type"] = "gpt2";
  j["vocab_size"] = s.V;
  j["n_embd"] = s.d;
  j["n_layer"] = s.layers;
  j["n_head"] = s.heads;
  j["n_positions"] = s.context;
  j["n_ctx"] = s.context;
  j["n_inner"] = s.ffn;
  j["activation_function"] = "gelu_new";
  j["layer_norm_epsilon"] = s.norm_eps;
  j["initializer_range"] = 0.02;
  j["resid_pdrop"] = 0.0;
  j["embd_pdrop"] = 0.0;
  j["attn_pdrop"] = 0.0;
  j["tie_word_embeddings"] = s.tied;
  j["bos_token_id"] = s.V == 50257 ? 50256 : 0;
  j["eos_token_id"] = s.V == 50257 ? 50256 : 0;
  j["torch_dtype"] = "float32";
  return j.dump(2) + "\n";
}

std::string gpt2_safetensors(const nn::ModelShape& s, const Weights& w) {
  check_trainable(s);
  const std::size_t C = s.d, F = s.ffn, V = s.V;
  std::vector<Tensor> ts;
  const auto add = [&](std::string name, std::vector<std::size_t> shape, std::span<const float> data) {
    ts.push_back({std::move(name), std::move(shape), {data.begin(), data.end()}});
  };
  add("transformer.wte.weight", {V, C}, w.wte);
  add("transformer.wpe.weight", {s.context, C}, w.wpe);
  for (std::size_t i = 0; i < w.blocks.size(); ++i) {
    const BlockWeights& b = w.blocks[i];
    const std::string h = fmt::format("transformer.h.{}.", i);
    add(h + "ln_1.weight", {C}, b.norm1_w);
    add(h + "ln_1.bias", {C}, b.norm1_b);
    add(h + "attn.c_attn.weight", {C, 3 * C}, conv1d(b.qkv_w, 3 * C, C));
    add(h + "attn.c_attn.bias", {3 * C}, b.qkv_b);
    add(h + "attn.c_proj.weight", {C, C}, conv1d(b.attn_proj_w, C, C));
    add(h + "attn.c_proj.bias", {C}, b.attn_proj_b);
    add(h + "ln_2.weight", {C}, b.norm2_w);
    add(h + "ln_2.bias", {C}, b.norm2_b);
    add(h + "mlp.c_fc.weight", {C, F}, conv1d(b.fc_w, F, C));
    add(h + "mlp.c_fc.bias", {F}, b.fc_b);
    add(h + "mlp.c_proj.weight", {F, C}, conv1d(b.proj_w, C, F));
    add(h + "mlp.c_proj.bias", {C}, b.proj_b);
  }
  add("transformer.ln_f.weight", {C}, w.normf_w);
  add("transformer.ln_f.bias", {C}, w.normf_b);
  if (!w.lm_head.empty()) add("lm_head.weight", {V, C}, w.lm_head);
  json header;
  header["__metadata__"] = {{"format", "pt"}};
  std::size_t offset = 0;
  for (const Tensor& t : ts) {
    const std::size_t bytes = t.data.size() * sizeof(float);
    header[t.name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string h = header.dump();
  while ((8 + h.size()) % 8 != 0) h.push_back(' ');  // the data starts 8-aligned
  std::string out(8, '\0');
  const std::uint64_t n = h.size();
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  out += h;
  out.reserve(out.size() + offset);
  for (const Tensor& t : ts) {
    const auto* p =
        reinterpret_cast<const char*>(t.data.data());  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    out.append(p, t.data.size() * sizeof(float));      // little-endian f32, as safetensors stores it
  }
  return out;
}

std::string gpt2_tokenizer_json(const std::string& encoder_json, const std::string& vocab_bpe,
                                const std::string& encoder_path) {
  nlohmann::json vocab;  // parsed only to check it and to find <|endoftext|>; the text goes in as it is
  try {
    vocab = nlohmann::json::parse(encoder_json);
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError(encoder_path, 0, e.byte > 0 ? e.byte - 1 : 0, fmt::format("invalid JSON: {}", e.what()));
  }
  if (!vocab.is_object()) throw ParseError(encoder_path, 0, 0, "expected an object {token: id}");
  json merges = json::array();
  std::istringstream lines(vocab_bpe);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.starts_with("#version")) continue;
    merges.push_back(line);
  }
  const auto eot_at = vocab.find("<|endoftext|>");
  const std::int64_t eot = eot_at != vocab.end() && eot_at->is_number_integer() ? eot_at->get<std::int64_t>() : -1;
  constexpr std::string_view kSlot = "\"@vocab@\"";
  const json j = text::byte_level_bpe_json({.vocab = "@vocab@", .merges = merges, .eot = eot, .post_processor = true});
  std::string out = j.dump();
  const std::size_t at = out.find(kSlot);
  out.replace(at, kSlot.size(), encoder_json);  // an ordered_json of 50k keys would insert in quadratic time
  return out + "\n";
}

const std::vector<std::string>& gpt2_directory_files() {
  static const std::vector<std::string> names{"config.json", "model.safetensors", "encoder.json",  "vocab.bpe",
                                              "vocab.json",  "merges.txt",        "tokenizer.json"};
  return names;
}

void check_gpt2_destination(const std::string& dir) { AtomicDir::check_replaceable(dir, gpt2_directory_files()); }

void write_gpt2_checkpoint(const std::string& dir, const nn::ModelShape& s, const Weights& w,
                           const std::string& gpt2_tokenizer_dir, const std::string& tokenizer_json) {
  // Read before the directory is made: every input is in hand before anything is written.
  std::string enc_path, enc, bpe;
  if (!gpt2_tokenizer_dir.empty()) {
    enc_path = (fs::path(gpt2_tokenizer_dir) / "encoder.json").string();
    enc = read_file(enc_path);
    bpe = read_file((fs::path(gpt2_tokenizer_dir) / "vocab.bpe").string());
  }
  AtomicDir out(dir, gpt2_directory_files());
  const auto at = [&](const char* name) { return out.file(name); };
  write_file_atomic(at("model.safetensors"), gpt2_safetensors(s, w));
  if (!gpt2_tokenizer_dir.empty()) {
    write_file_atomic(at("encoder.json"), enc);
    write_file_atomic(at("vocab.bpe"), bpe);
    write_file_atomic(at("vocab.json"), enc);
    write_file_atomic(at("merges.txt"), bpe);
    write_file_atomic(at("tokenizer.json"), gpt2_tokenizer_json(enc, bpe, enc_path));
  } else if (!tokenizer_json.empty()) {
    write_file_atomic(at("tokenizer.json"), tokenizer_json);
  }
  write_file_atomic(at("config.json"), gpt2_config_json(s));
  out.commit();
}

}  // namespace lumen::model
