#pragma once
// The parameter calculator: how a decoder-only transformer's parameters split between the embedding
// (V x d, growing with d) and the blocks (about 12 d^2 each, growing with N x d^2).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lumen::nn {

enum class Positional { learned, rope, none };
enum class Norm { layernorm, rmsnorm };
enum class Mlp { gelu, swiglu };

std::string_view positional_name(Positional p);
std::string_view norm_name(Norm n);
std::string_view mlp_name(Mlp m);
Positional parse_positional(std::string_view s);  // throws UsageError
Norm parse_norm(std::string_view s);
Mlp parse_mlp(std::string_view s);

struct ModelShape {
  std::string name = "custom";
  std::uint64_t V = 50257;    // vocabulary
  std::uint64_t d = 768;      // d_model
  std::uint64_t layers = 12;  // N blocks
  std::uint64_t heads = 12;
  std::uint64_t kv_heads = 12;   // < heads: grouped-query attention
  std::uint64_t ffn = 3072;      // hidden width of the MLP
  std::uint64_t context = 1024;  // rows of a learned positional table
  bool tied = true;              // output head shares E
  Positional positional = Positional::learned;
  Norm norm = Norm::layernorm;
  Mlp mlp = Mlp::gelu;
  bool biases = true;  // linear layers (and LayerNorm) carry biases
  // Not counted, but part of the model that `lumen gpt` runs (lumen::model): config.json's layer_norm_epsilon /
  // rms_norm_eps and rope_theta.
  double norm_eps = 1e-5;
  double rope_theta = 10000.0;
};

// gpt2, gpt2-medium, gpt2-large, gpt2-xl, llama-3-8b, llama-3.2-1b. Throws UsageError naming the known ones.
ModelShape preset(std::string_view name);
const std::vector<std::string>& preset_names();
// The FFN width a family uses by default: 4d (GELU); for SwiGLU 2/3 of 4d rounded up to a multiple of 256.
std::uint64_t default_ffn(std::uint64_t d, Mlp mlp);

struct ParamCount {
  std::uint64_t token_embedding = 0;  // V x d
  std::uint64_t positional = 0;       // context x d (learned only)
  std::uint64_t attention = 0;        // per block: Q, K, V, output projections (+ biases)
  std::uint64_t mlp = 0;              // per block
  std::uint64_t norms = 0;            // per block: the two norms
  std::uint64_t block = 0;            // per block: attention + mlp + norms
  std::uint64_t blocks = 0;           // layers x block
  std::uint64_t final_norm = 0;
  std::uint64_t output_head = 0;  // 0 when tied (it reuses E)
  std::uint64_t total = 0;
  double embedding_share = 0;  // token_embedding / total
  double vocab_share = 0;      // (token_embedding + output_head) / total: what lives in V-row tables
};

// count_params counts fewer than 2^62 parameters, so that every count and its fp32 bytes fit in 64 bits.
inline constexpr std::uint64_t kMaxParams = std::uint64_t{1} << 62;

// Throws UsageError for an impossible shape (d not divisible by heads, heads not by kv_heads, zeros), and for a
// shape with kMaxParams parameters or more in any part (never a total that wrapped around).
ParamCount count_params(const ModelShape& shape);

// Bytes per parameter for the memory column: fp32 4, bf16 2, fp16 2, int8 1.
struct Precision {
  std::string_view name;
  unsigned bytes;
};
const std::vector<Precision>& precisions();

// The sweep: shapes whose d and N grow together (GPT-3's family of sizes, plus two small ones), each
// keeping the vocabulary and architecture of `base`.
std::vector<ModelShape> sweep_shapes(const ModelShape& base);

}  // namespace lumen::nn
