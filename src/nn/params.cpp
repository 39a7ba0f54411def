#include "lumen/nn/params.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <utility>

#include "lumen/core/error.hpp"

namespace lumen::nn {

std::string_view positional_name(Positional p) {
  switch (p) {
    case Positional::learned: return "learned";
    case Positional::rope: return "rope";
    case Positional::none: return "none";
  }
  return "?";
}
std::string_view norm_name(Norm n) { return n == Norm::layernorm ? "layernorm" : "rmsnorm"; }
std::string_view mlp_name(Mlp m) { return m == Mlp::gelu ? "gelu" : "swiglu"; }

Positional parse_positional(std::string_view s) {
  if (s == "learned") return Positional::learned;
  if (s == "rope") return Positional::rope;
  if (s == "none") return Positional::none;
  throw UsageError(fmt::format("unknown positional '{}' (expected learned, rope or none)", s));
}
Norm parse_norm(std::string_view s) {
  if (s == "layernorm") return Norm::layernorm;
  if (s == "rmsnorm") return Norm::rmsnorm;
  throw UsageError(fmt::format("unknown norm '{}' (expected layernorm or rmsnorm)", s));
}
Mlp parse_mlp(std::string_view s) {
  if (s == "gelu") return Mlp::gelu;
  if (s == "swiglu") return Mlp::swiglu;
  throw UsageError(fmt::format("unknown MLP '{}' (expected gelu or swiglu)", s));
}

std::uint64_t default_ffn(std::uint64_t d, Mlp mlp) {
  if (d >= kMaxParams / 4) return kMaxParams;  // never wraps to a small width; count_params refuses the shape
  if (mlp == Mlp::gelu) return 4 * d;
  const std::uint64_t h = 2 * (4 * d) / 3;  // SwiGLU keeps the parameter count of a 4d GELU MLP
  return (h + 255) / 256 * 256;
}

namespace {
ModelShape gpt2(std::string name, std::uint64_t d, std::uint64_t layers, std::uint64_t heads) {
  ModelShape s;
  s.name = std::move(name);
  s.V = 50257;
  s.d = d;
  s.layers = layers;
  s.heads = s.kv_heads = heads;
  s.ffn = 4 * d;
  s.context = 1024;
  return s;  // tied, learned positions, LayerNorm, GELU, biases: GPT-2 (Radford et al. 2019)
}
ModelShape llama(std::string name, std::uint64_t d, std::uint64_t layers, std::uint64_t heads, std::uint64_t kv,
                 std::uint64_t ffn, std::uint64_t context, bool tied) {
  ModelShape s;
  s.name = std::move(name);
  s.V = 128256;
  s.d = d;
  s.layers = layers;
  s.heads = heads;
  s.kv_heads = kv;
  s.ffn = ffn;
  s.context = context;
  s.tied = tied;
  s.positional = Positional::rope;
  s.norm = Norm::rmsnorm;
  s.mlp = Mlp::swiglu;
  s.biases = false;
  s.norm_eps = 1e-5;
  s.rope_theta = 500000.0;  // Llama 3
  return s;
}
}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"gpt2",    "gpt2-medium", "gpt2-large",
                                                 "gpt2-xl", "llama-3-8b",  "llama-3.2-1b"};
  return names;
}

ModelShape preset(std::string_view name) {
  // Shapes from each model's published config.json.
  if (name == "gpt2") return gpt2("gpt2", 768, 12, 12);
  if (name == "gpt2-medium") return gpt2("gpt2-medium", 1024, 24, 16);
  if (name == "gpt2-large") return gpt2("gpt2-large", 1280, 36, 20);
  if (name == "gpt2-xl") return gpt2("gpt2-xl", 1600, 48, 25);
  if (name == "llama-3-8b") return llama("llama-3-8b", 4096, 32, 32, 8, 14336, 8192, false);
  if (name == "llama-3.2-1b") return llama("llama-3.2-1b", 2048, 16, 32, 8, 8192, 131072, true);
  std::string known;
  for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw UsageError(fmt::format("unknown preset '{}' (known: {})", name, known));
}

namespace {
// Counts in 64 bits, refusing a shape whose count would wrap around (a silently wrong total) or reach
// kMaxParams (whose fp32 bytes would not fit in 64 bits).
std::uint64_t checked(std::uint64_t x) {
  if (x >= kMaxParams)
    throw UsageError(
        fmt::format("the shape has {} (2^62) parameters or more: beyond what the calculator counts", kMaxParams));
  return x;
}
std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) r = kMaxParams;
  return checked(r);
}
std::uint64_t add(std::uint64_t a, std::uint64_t b) { return checked(checked(a) + checked(b)); }  // < 2^63
}  // namespace

ParamCount count_params(const ModelShape& s) {
  if (s.V == 0 || s.d == 0 || s.heads == 0 || s.kv_heads == 0 || s.ffn == 0)
    throw UsageError("vocab, d_model, heads, kv heads and FFN width must all be > 0");
  if (s.d % s.heads != 0) throw UsageError(fmt::format("d_model {} is not divisible by {} heads", s.d, s.heads));
  if (s.heads % s.kv_heads != 0)
    throw UsageError(fmt::format("{} heads are not divisible by {} kv heads", s.heads, s.kv_heads));
  if (s.positional == Positional::learned && s.context == 0)
    throw UsageError("a learned positional table needs context > 0");
  const std::uint64_t d = s.d, head_dim = d / s.heads, kv = s.kv_heads * head_dim, b = s.biases ? 1 : 0;

  ParamCount c;
  c.token_embedding = mul(s.V, d);
  c.positional = s.positional == Positional::learned ? mul(s.context, d) : 0;
  // Q (d,d), K and V (d, kv_heads*head_dim) each, output projection (d,d).
  const std::uint64_t dd = mul(d, d), dkv = mul(d, kv);
  c.attention = add(add(dd, dd), add(mul(2, dkv), mul(b, add(mul(2, d), mul(2, kv)))));
  // GELU: up (d,ffn), down (ffn,d). SwiGLU: gate and up (d,ffn), down (ffn,d).
  const std::uint64_t dffn = mul(d, s.ffn);
  c.mlp =
      s.mlp == Mlp::gelu ? add(mul(2, dffn), mul(b, add(s.ffn, d))) : add(mul(3, dffn), mul(b, add(mul(2, s.ffn), d)));
  // LayerNorm has a gain and (with biases) a shift; RMSNorm only a gain.
  const std::uint64_t norm = s.norm == Norm::layernorm ? mul(d, 1 + b) : d;
  c.norms = mul(2, norm);
  c.block = add(add(c.attention, c.mlp), c.norms);
  c.blocks = mul(s.layers, c.block);
  c.final_norm = norm;
  c.output_head = s.tied ? 0 : c.token_embedding;  // no bias, as in GPT-2 and LLaMA
  c.total = add(add(add(c.token_embedding, c.positional), add(c.blocks, c.final_norm)), c.output_head);
  c.embedding_share = static_cast<double>(c.token_embedding) / static_cast<double>(c.total);
  c.vocab_share = static_cast<double>(c.token_embedding + c.output_head) / static_cast<double>(c.total);
  return c;
}

const std::vector<Precision>& precisions() {
  static const std::vector<Precision> p = {{"fp32", 4}, {"bf16", 2}, {"fp16", 2}, {"int8", 1}};
  return p;
}

std::vector<ModelShape> sweep_shapes(const ModelShape& base) {
  // (d, N): two small shapes, then the eight sizes of the GPT-3 paper (Brown et al. 2020, table 2.1).
  static const std::pair<std::uint64_t, std::uint64_t> dn[] = {{256, 4},   {512, 8},   {768, 12},  {1024, 24},
                                                               {1536, 24}, {2048, 24}, {2560, 32}, {4096, 32},
                                                               {5120, 40}, {12288, 96}};
  std::vector<ModelShape> out;
  for (auto [d, n] : dn) {
    ModelShape s = base;
    s.name = fmt::format("d={} N={}", d, n);
    s.d = d;
    s.layers = n;
    s.heads = d / 64;  // head size 64 throughout
    s.kv_heads =
        base.kv_heads == base.heads ? s.heads : std::max<std::uint64_t>(1, s.heads * base.kv_heads / base.heads);
    while (s.heads % s.kv_heads != 0) --s.kv_heads;
    s.ffn = default_ffn(d, s.mlp);
    out.push_back(s);
  }
  return out;
}

}  // namespace lumen::nn
