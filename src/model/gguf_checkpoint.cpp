// A GGUF model (see gguf_checkpoint.hpp). The metadata is read into the config.json that Hugging Face would ship,
// so one parser checks both; every tensor is accounted for, as for safetensors: each one the architecture needs
// is taken once (shape checked, used in place when F32, else converted to f32; checked finite) and one left over is
// an error.
#include "model/gguf_checkpoint.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "io/ggml_types.hpp"
#include "io/gguf_file.hpp"
#include "lumen/core/dtype.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/gguf_export.hpp"
#include "model/weight_copy.hpp"

namespace lumen::model {

namespace {

// Metadata values by key, each read as the config.json field it stands for.
class Metadata {
 public:
  Metadata(const io::GgufFile& g, std::string path) : g_(g), path_(std::move(path)) {}

  const io::GgufValue* find(const std::string& key) const { return g_.find(key); }
  std::uint64_t size(const std::string& key) const {
    const io::GgufValue* v = require(key);
    if (const auto* u = std::get_if<std::uint64_t>(&v->value)) return *u;
    if (const auto* i = std::get_if<std::int64_t>(&v->value); i != nullptr && *i >= 0)
      return static_cast<std::uint64_t>(*i);
    throw InputError(fmt::format("{}: {} is not a non-negative integer", path_, key));
  }
  double number(const std::string& key, double fallback) const {
    const io::GgufValue* v = find(key);
    if (v == nullptr) return fallback;
    if (const auto* d = std::get_if<double>(&v->value)) return *d;
    if (const auto* u = std::get_if<std::uint64_t>(&v->value)) return static_cast<double>(*u);
    if (const auto* i = std::get_if<std::int64_t>(&v->value)) return static_cast<double>(*i);
    throw InputError(fmt::format("{}: {} is not a number", path_, key));
  }
  std::string text(const std::string& key) const {
    const auto* s = std::get_if<std::string>(&require(key)->value);
    if (s == nullptr) throw InputError(fmt::format("{}: {} is not a string", path_, key));
    return *s;
  }

 private:
  const io::GgufValue* require(const std::string& key) const {
    const io::GgufValue* v = find(key);
    if (v == nullptr) throw InputError(fmt::format("{}: no {} in the metadata", path_, key));
    return v;
  }
  const io::GgufFile& g_;
  std::string path_;
};

Config config_of(const io::GgufFile& g, const std::string& path) {
  const Metadata m(g, path);
  const std::string arch = m.text("general.architecture");
  if (arch != "gpt2" && arch != "llama")
    throw InputError(fmt::format("{}: architecture '{}' is not one lumen runs (gpt2, llama)", path, arch));
  const io::GgufTensor* embd = g.tensor("token_embd.weight");
  if (embd == nullptr || embd->ne.size() != 2)
    throw InputError(fmt::format("{}: no 2-D token_embd.weight (the token table)", path));
  const auto key = [&](const char* k) { return fmt::format("{}.{}", arch, k); };
  nlohmann::json j;
  j["model_type"] = arch;
  j["vocab_size"] = embd->ne[1];
  j["tie_word_embeddings"] = g.tensor("output.weight") == nullptr;
  if (arch == "gpt2") {
    j["n_embd"] = m.size(key("embedding_length"));
    j["n_layer"] = m.size(key("block_count"));
    j["n_head"] = m.size(key("attention.head_count"));
    j["n_positions"] = m.size(key("context_length"));
    j["n_inner"] = m.size(key("feed_forward_length"));
    j["layer_norm_epsilon"] = m.number(key("attention.layer_norm_epsilon"), 1e-5);
  } else {
    const std::uint64_t heads = m.size(key("attention.head_count"));
    j["hidden_size"] = m.size(key("embedding_length"));
    j["num_hidden_layers"] = m.size(key("block_count"));
    j["num_attention_heads"] = heads;
    j["num_key_value_heads"] = m.find(key("attention.head_count_kv")) ? m.size(key("attention.head_count_kv")) : heads;
    j["intermediate_size"] = m.size(key("feed_forward_length"));
    j["max_position_embeddings"] = m.size(key("context_length"));
    j["rms_norm_eps"] = m.number(key("attention.layer_norm_rms_epsilon"), 1e-5);
    j["rope_theta"] = m.number(key("rope.freq_base"), 10000.0);
    if (m.find(key("rope.dimension_count")) != nullptr && heads != 0 &&
        m.size(key("rope.dimension_count")) * heads != m.size(key("embedding_length")))
      throw InputError(fmt::format("{}: {} is {}; lumen rotates whole heads (embedding_length / head_count)", path,
                                   key("rope.dimension_count"), m.size(key("rope.dimension_count"))));
  }
  return parse_config(j.dump(), fmt::format("{} (its metadata as config.json)", path));
}

class GgufTensors {
 public:
  GgufTensors(const io::GgufFile& g, std::string path) : g_(g), path_(std::move(path)) {}

  // The tensor of (rows, cols) (a vector: rows == 1), as f32: used in place in the map when it is F32. keep_half: a
  // matrix the forward reads by tiles or rows (the blocks' linear weights, E, the head), which F16 and BF16 views
  // keep at half size.
  Param take(const std::string& name, std::uint64_t rows, std::uint64_t cols, bool keep_half = false) {
    const io::GgufTensor& t = find(name, rows, cols);
    if (auto view = weight_in_place(g_.file, t.begin, rows * cols, t.type, name, 0, keep_half)) {
      used(t, rows * cols);
      return std::move(*view);
    }
    return copy(name, rows, cols);
  }

  // The tensor converted to owned f32 values (to be rearranged, or not a weight).
  std::vector<float> copy(const std::string& name, std::uint64_t rows, std::uint64_t cols) {
    const io::GgufTensor& t = find(name, rows, cols);
    std::vector<float> out;
    append_f32(out, *g_.file, t.begin, rows * cols, t.type, name);
    used(t, rows * cols);
    return out;
  }

  void check_all_used(const std::string& what) const {
    for (const auto& t : g_.tensors)
      if (used_.count(t.name) == 0)
        throw InputError(fmt::format("{}: extra tensor '{}', not part of {}", path_, t.name, what));
  }
  std::string dtype() const {
    if (types_.empty()) return "";
    return types_.size() == 1 ? *types_.begin() : fmt::format("mixed ({})", fmt::join(types_, ", "));
  }
  std::size_t parameters() const { return parameters_; }

 private:
  // The tensor `name`, checked to be of (rows, cols) and a type lumen reads.
  const io::GgufTensor& find(const std::string& name, std::uint64_t rows, std::uint64_t cols) const {
    const io::GgufTensor* t = g_.tensor(name);
    if (t == nullptr) throw InputError(fmt::format("{}: missing tensor '{}'", path_, name));
    const std::vector<std::uint64_t> want =
        rows == 1 ? std::vector<std::uint64_t>{cols} : std::vector<std::uint64_t>{cols, rows};
    if (t->ne != want)
      throw InputError(fmt::format("{}: tensor '{}' has ne [{}]; the metadata needs [{}]", path_, name,
                                   fmt::join(t->ne, ", "), fmt::join(want, ", ")));
    if (!t->type.readable)
      throw InputError(fmt::format("{}: tensor '{}' is {}; lumen reads F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K",
                                   path_, name, t->type.name));
    if (cols % t->type.block != 0)
      throw InputError(fmt::format("{}: tensor '{}' rows of {} are not whole {} blocks of {}", path_, name, cols,
                                   t->type.name, t->type.block));
    return *t;
  }
  void used(const io::GgufTensor& t, std::size_t n) {
    used_.insert(t.name);
    types_.insert(std::string(t.type.name));
    parameters_ += n;
  }

  const io::GgufFile& g_;
  std::string path_;
  std::set<std::string> used_, types_;
  std::size_t parameters_ = 0;
};

// Appends q or k rows, from GGUF's interleaved order back to Hugging Face's rotate-half one.
void append_unpermuted(std::vector<float>& out, const std::vector<float>& w, std::size_t rows, std::size_t C,
                       std::size_t hs) {
  reserve_more(out, rows * C);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* from = w.data() + gguf_row_of_hf(r, hs) * C;
    out.insert(out.end(), from, from + C);
  }
}

Weights take_weights(GgufTensors& ts, const Config& c, const std::function<void()>& tick) {
  const nn::ModelShape& s = c.shape;
  const std::uint64_t C = s.d, V = s.V, F = s.ffn, hs = s.d / s.heads, NQ = s.heads * hs, NKV = s.kv_heads * hs;
  const bool llama = c.family == Family::llama;
  Weights w;
  w.wte = ts.take("token_embd.weight", V, C, true);
  if (!llama) w.wpe = ts.take("position_embd.weight", s.context, C);
  tick();
  for (std::uint64_t i = 0; i < s.layers; ++i) {
    const std::string blk = fmt::format("blk.{}.", i);
    BlockWeights b;
    b.norm1_w = ts.take(blk + "attn_norm.weight", 1, C);
    b.norm2_w = ts.take(blk + "ffn_norm.weight", 1, C);
    if (llama) {
      // q and k with their rows unpermuted (copies), v in place: one stack. gate and up in place: another.
      std::vector<float> q, k;
      append_unpermuted(q, ts.copy(blk + "attn_q.weight", NQ, C), NQ, C, hs);
      append_unpermuted(k, ts.copy(blk + "attn_k.weight", NKV, C), NKV, C, hs);
      b.qkv_w = Param::stack({std::move(q), std::move(k), ts.take(blk + "attn_v.weight", NKV, C, true)});
      b.attn_proj_w = ts.take(blk + "attn_output.weight", C, NQ, true);
      b.fc_w = Param::stack({ts.take(blk + "ffn_gate.weight", F, C, true), ts.take(blk + "ffn_up.weight", F, C, true)});
      b.proj_w = ts.take(blk + "ffn_down.weight", C, F, true);
    } else {
      b.norm1_b = ts.take(blk + "attn_norm.bias", 1, C);
      b.norm2_b = ts.take(blk + "ffn_norm.bias", 1, C);
      b.qkv_w = ts.take(blk + "attn_qkv.weight", 3 * C, C, true);
      b.qkv_b = ts.take(blk + "attn_qkv.bias", 1, 3 * C);
      b.attn_proj_w = ts.take(blk + "attn_output.weight", C, C, true);
      b.attn_proj_b = ts.take(blk + "attn_output.bias", 1, C);
      b.fc_w = ts.take(blk + "ffn_up.weight", F, C, true);
      b.fc_b = ts.take(blk + "ffn_up.bias", 1, F);
      b.proj_w = ts.take(blk + "ffn_down.weight", C, F, true);
      b.proj_b = ts.take(blk + "ffn_down.bias", 1, C);
    }
    w.blocks.push_back(std::move(b));
    tick();
  }
  w.normf_w = ts.take("output_norm.weight", 1, C);
  if (!llama) w.normf_b = ts.take("output_norm.bias", 1, C);
  if (!s.tied) w.lm_head = ts.take("output.weight", V, C, true);
  tick();
  return w;
}

}  // namespace

bool is_gguf_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::memcmp(magic, "GGUF", 4) == 0;
}

Config read_gguf_config(const std::string& path) { return config_of(io::parse_gguf(io::MappedFile::open(path)), path); }

Transformer load_gguf_checkpoint(const std::string& path, LoadReport* report, const ProgressFn& progress) {
  const io::GgufFile g = io::parse_gguf(io::MappedFile::open(path));
  Config config = config_of(g, path);
  GgufTensors ts(g, path);
  std::size_t done = 0;
  const std::size_t total = config.shape.layers + 2;
  Weights w = take_weights(ts, config, [&] {
    if (progress) progress("load", ++done, total);
  });
  // Llama 3.1's rope scaling, as llama.cpp's converter writes it: each frequency's divisor.
  if (config.family == Family::llama && g.tensor("rope_freqs.weight") != nullptr)
    config.rope_freq_factors = ts.copy("rope_freqs.weight", 1, config.shape.d / config.shape.heads / 2);
  ts.check_all_used(fmt::format("a {} model with {} layers", family_name(config.family), config.shape.layers));
  if (report != nullptr) {
    report->files = {path};
    report->dtype = ts.dtype();
    report->head = config.shape.tied ? "tied (no output.weight in the GGUF)" : "untied (output.weight)";
    report->tensors = g.tensors.size();
    report->parameters = ts.parameters();
  }
  return Transformer(std::move(config), std::move(w));
}

}  // namespace lumen::model
