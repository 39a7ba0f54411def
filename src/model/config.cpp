// config.json of a Hugging Face GPT-2 or Llama checkpoint -> nn::ModelShape (+ what the calculator does not count).
#include "lumen/model/config.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <numbers>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/model/ops.hpp"
#include "model/gguf_checkpoint.hpp"

namespace lumen::model {

namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 24;  // d, layers, heads, ffn, context
constexpr std::uint64_t kMaxVocab = (std::uint64_t{1} << 31) - 1;

struct Reader {
  const json& j;
  const std::string& path;

  [[noreturn]] void fail(std::string_view field, const std::string& what) const {
    throw InputError(fmt::format("{}: {}: {}", path, field, what));
  }
  bool has(const char* field) const { return j.contains(field) && !j[field].is_null(); }
  std::uint64_t size(const char* field, std::uint64_t max = kMaxSize) const {
    if (!has(field)) fail(field, "missing; expected a positive integer");
    const json& v = j[field];
    if (!v.is_number_integer()) fail(field, fmt::format("is {}; expected a positive integer", v.dump()));
    if (v.is_number_unsigned() && v.get<std::uint64_t>() >= 1 && v.get<std::uint64_t>() <= max)
      return v.get<std::uint64_t>();
    fail(field, fmt::format("is {}; expected 1 .. {}", v.dump(), max));
  }
  std::uint64_t size_or(const char* field, std::uint64_t fallback, std::uint64_t max = kMaxSize) const {
    return has(field) ? size(field, max) : fallback;
  }
  double positive(const char* field, double fallback) const {
    if (!has(field)) return fallback;
    const json& v = j[field];
    if (!v.is_number()) fail(field, fmt::format("is {}; expected a number", v.dump()));
    const double x = v.get<double>();
    if (!std::isfinite(x) || x <= 0) fail(field, fmt::format("is {}; expected a finite number > 0", v.dump()));
    return x;
  }
  bool flag(const char* field, bool fallback) const {
    if (!has(field)) return fallback;
    if (!j[field].is_boolean()) fail(field, fmt::format("is {}; expected true or false", j[field].dump()));
    return j[field].get<bool>();
  }
  std::string text(const char* field, const std::string& fallback) const {
    if (!has(field)) return fallback;
    if (!j[field].is_string()) fail(field, fmt::format("is {}; expected a string", j[field].dump()));
    return j[field].get<std::string>();
  }
};

void check_heads(const Reader& r, const nn::ModelShape& s, const char* heads_field, const char* kv_field) {
  if (s.d % s.heads != 0) r.fail(heads_field, fmt::format("{} does not divide the width {}", s.heads, s.d));
  if (s.kv_heads > s.heads || s.heads % s.kv_heads != 0)
    r.fail(kv_field, fmt::format("{} does not divide the {} attention heads", s.kv_heads, s.heads));
}

}  // namespace

std::string_view family_name(Family f) { return f == Family::gpt2 ? "gpt2" : "llama"; }

Config parse_config(std::string_view json_text, const std::string& path) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw ParseError(path, 0, e.byte > 0 ? e.byte - 1 : 0, fmt::format("invalid JSON: {}", e.what()));
  } catch (const json::exception& e) {
    throw ParseError(path, 0, 0, fmt::format("invalid JSON: {}", e.what()));
  }
  if (!j.is_object()) throw ParseError(path, 0, 0, "expected a JSON object");
  const Reader r{j, path};
  Config c;
  c.path = path;
  c.model_type = r.text("model_type", "");
  nn::ModelShape& s = c.shape;
  s.name = c.model_type;
  if (c.model_type == "gpt2") {
    c.family = Family::gpt2;
    s.V = r.size("vocab_size", kMaxVocab);
    s.d = r.size("n_embd");
    s.layers = r.size("n_layer");
    s.heads = r.size("n_head");
    s.kv_heads = s.heads;
    s.context = r.has("n_positions") ? r.size("n_positions") : r.size("n_ctx");
    s.ffn = r.size_or("n_inner", 4 * s.d);
    s.norm_eps = r.positive("layer_norm_epsilon", 1e-5);
    s.tied = r.flag("tie_word_embeddings", true);
    s.positional = nn::Positional::learned;
    s.norm = nn::Norm::layernorm;
    s.mlp = nn::Mlp::gelu;
    s.biases = true;
    const std::string act = r.text("activation_function", "gelu_new");
    if (act != "gelu_new" && act != "gelu_pytorch_tanh")
      r.fail("activation_function", fmt::format("'{}' is not supported; expected gelu_new (GPT-2's tanh form)", act));
    check_heads(r, s, "n_head", "n_head");
  } else if (c.model_type == "llama") {
    c.family = Family::llama;
    s.V = r.size("vocab_size", kMaxVocab);
    s.d = r.size("hidden_size");
    s.layers = r.size("num_hidden_layers");
    s.heads = r.size("num_attention_heads");
    s.kv_heads = r.size_or("num_key_value_heads", s.heads);
    s.ffn = r.size("intermediate_size");
    s.context = r.size_or("max_position_embeddings", 2048);
    s.norm_eps = r.positive("rms_norm_eps", 1e-6);
    s.rope_theta = r.positive("rope_theta", 10000.0);
    s.tied = r.flag("tie_word_embeddings", false);
    s.positional = nn::Positional::rope;
    s.norm = nn::Norm::rmsnorm;
    s.mlp = nn::Mlp::swiglu;
    s.biases = false;
    if (r.flag("attention_bias", false)) r.fail("attention_bias", "true is not supported (Llama has none)");
    if (r.flag("mlp_bias", false)) r.fail("mlp_bias", "true is not supported (Llama has none)");
    const std::string act = r.text("hidden_act", "silu");
    if (act != "silu") r.fail("hidden_act", fmt::format("'{}' is not supported; expected silu (SwiGLU)", act));
    check_heads(r, s, "num_attention_heads", "num_key_value_heads");
    if ((s.d / s.heads) % 2 != 0)
      r.fail("num_attention_heads", fmt::format("head size {} is odd; RoPE needs an even one", s.d / s.heads));
    if (r.has("head_dim") && r.size("head_dim") != s.d / s.heads)
      r.fail("head_dim", fmt::format("is {}; lumen needs hidden_size / num_attention_heads = {}", r.size("head_dim"),
                                     s.d / s.heads));
    if (r.has("rope_scaling")) {
      const json& rs = j["rope_scaling"];
      const std::string type = rs.is_object() ? rs.value("rope_type", rs.value("type", std::string())) : "";
      if (type != "llama3")
        r.fail("rope_scaling", fmt::format("{} is not supported (only rope_type llama3)", rs.dump()));
      const Reader rr{rs, path};
      c.rope_factor = rr.positive("factor", 8);
      c.rope_low_freq_factor = rr.positive("low_freq_factor", 1);
      c.rope_high_freq_factor = rr.positive("high_freq_factor", 4);
      c.rope_original_context = rr.positive("original_max_position_embeddings", 8192);
      if (c.rope_high_freq_factor <= c.rope_low_freq_factor)
        r.fail("rope_scaling", "high_freq_factor must exceed low_freq_factor");
    }
  } else {
    r.fail("model_type", fmt::format("{}; expected \"gpt2\" or \"llama\"",
                                     r.has("model_type") ? j["model_type"].dump() : std::string("missing")));
  }
  return c;
}

Config read_config(const std::string& path) {
  namespace fs = std::filesystem;
  if (is_gguf_file(path)) return read_gguf_config(path);
  std::error_code ec;
  const std::string file = fs::is_directory(path, ec) ? (fs::path(path) / "config.json").string() : path;
  return parse_config(read_file(file), file);
}

nn::ModelShape shape_named(const std::string& name) {
  namespace fs = std::filesystem;
  const auto& presets = nn::preset_names();
  if (name.empty() || std::find(presets.begin(), presets.end(), name) != presets.end())
    return nn::preset(name.empty() ? "gpt2" : name);
  std::error_code ec;
  const auto st = fs::status(name, ec);
  if (fs::exists(st) || name.find('/') != std::string::npos || name.ends_with(".json")) {
    // A path: its config.json. A file other than a .json one (model.safetensors) stands for its directory.
    std::string file = name;
    if (fs::is_directory(st)) file = (fs::path(name) / "config.json").string();
    else if (fs::exists(st) && !name.ends_with(".json") && !is_gguf_file(name))
      file = (fs::path(name).parent_path() / "config.json").string();
    nn::ModelShape s = read_config(file).shape;
    s.name = fmt::format("{} ({})", s.name, name);
    return s;
  }
  std::string known;
  for (const auto& n : presets) known += (known.empty() ? "" : ", ") + n;
  throw UsageError(
      fmt::format("'{}' is neither a preset (known: {}) nor a checkpoint: no such file or directory", name, known));
}

std::vector<float> rope_freq_factors(const Config& c, std::size_t hs) {
  if (!c.rope_freq_factors.empty()) {
    if (c.rope_freq_factors.size() != hs / 2)
      throw InputError(fmt::format("{}: {} RoPE frequency factors for heads of {} (it needs {})", c.path,
                                   c.rope_freq_factors.size(), hs, hs / 2));
    return c.rope_freq_factors;
  }
  std::vector<float> inv(hs / 2), out(hs / 2, 1.0f);
  rope_inv_freq(inv.data(), hs, c.shape.rope_theta);
  if (c.rope_factor <= 0) return out;
  const double low_wavelen = c.rope_original_context / c.rope_low_freq_factor;
  const double high_wavelen = c.rope_original_context / c.rope_high_freq_factor;
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const double wavelen = 2 * std::numbers::pi / inv[i];
    if (wavelen < high_wavelen) continue;
    if (wavelen > low_wavelen) {
      out[i] = static_cast<float>(c.rope_factor);
      continue;
    }
    const double smooth = (c.rope_original_context / wavelen - c.rope_low_freq_factor) /
                          (c.rope_high_freq_factor - c.rope_low_freq_factor);
    out[i] = static_cast<float>(1.0 / ((1 - smooth) / c.rope_factor + smooth));
  }
  return out;
}

}  // namespace lumen::model
