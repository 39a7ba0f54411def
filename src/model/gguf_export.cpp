// The GGUF model writer (see gguf_export.hpp).
#include "lumen/model/gguf_export.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <span>
#include <vector>

#include "io/ggml_types.hpp"
#include "io/gguf_writer.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "lumen/text/byte_level.hpp"
#include "lumen/text/pretokenizer.hpp"
#include "model/gguf_checkpoint.hpp"

namespace lumen::model {

namespace {

// llama.cpp's token types.
enum : std::int32_t { kNormal = 1, kControl = 3, kUserDefined = 4, kUnused = 5 };

io::GgmlType type_of(DType t) { return *io::ggml_type(t == DType::f16 ? 1 : 0); }

// Adds the (rows, cols) values at `values` as a tensor of ne {cols, rows} (a vector when rows == 1), in `type`.
// The values are read when the file is written: they must stay alive until then.
void add(io::GgufWriter& w, const std::string& name, const float* values, std::uint64_t rows, std::uint64_t cols,
         const io::GgmlType& type) {
  std::vector<std::uint64_t> ne{cols};
  if (rows != 1) ne.push_back(rows);
  const std::size_t n = rows * cols;
  w.add_tensor(name, std::move(ne), type, [values, n, type](const io::GgufWriter::Sink& sink) {
    if (type.id == 0) return sink(values, n * sizeof(float));
    constexpr std::size_t kChunk = 1 << 16;  // converted a piece at a time, never a whole copy
    std::vector<std::uint16_t> half;
    for (std::size_t at = 0; at < n; at += kChunk) {
      const std::size_t m = std::min(kChunk, n - at);
      half.resize(m);
      for (std::size_t i = 0; i < m; ++i) half[i] = f32_to_f16(values[at + i]);
      sink(half.data(), m * sizeof(std::uint16_t));
    }
  });
}

void add(io::GgufWriter& w, const std::string& name, std::span<const float> values, std::uint64_t rows,
         std::uint64_t cols, const io::GgmlType& type) {
  if (values.size() != rows * cols)
    throw InputError(fmt::format("tensor '{}' holds {} values; its shape needs {}", name, values.size(), rows * cols));
  add(w, name, values.data(), rows, cols, type);
}

// A Llama's q or k rows (heads of hs rows, then C columns) in GGUF's interleaved order.
std::vector<float> permuted(const float* w, std::size_t rows, std::size_t C, std::size_t hs) {
  std::vector<float> out(rows * C);
  for (std::size_t r = 0; r < rows; ++r)
    std::copy(w + r * C, w + (r + 1) * C, out.begin() + static_cast<std::ptrdiff_t>(gguf_row_of_hf(r, hs) * C));
  return out;
}

void add_tokenizer(io::GgufWriter& w, const text::Tokenizer& tok, Family family) {
  const text::BpeModel& bpe = tok.model();
  std::vector<std::string> tokens(tok.size());
  std::vector<std::int32_t> types(tok.size(), kNormal);
  for (std::size_t id = 0; id < tok.size(); ++id) {
    const auto i = static_cast<Id>(id);
    if (tok.is_added(i)) {
      tokens[id] = tok.piece(i);
      bool special = false;
      for (const auto& a : tok.added())
        if (a.id == i) special = a.special;
      types[id] = special ? kControl : kUserDefined;
    } else if (tok.has(i)) {
      tokens[id] = text::to_byte_level(tok.piece(i));
    } else {
      tokens[id] = fmt::format("<unused{}>", id);  // GGUF needs a distinct string for every id
      types[id] = kUnused;
    }
  }
  std::vector<std::string> merges;
  merges.reserve(bpe.merges.size());
  for (const auto& [a, b] : bpe.merges) merges.push_back(tokens[a] + " " + tokens[b]);

  w.add_string("tokenizer.ggml.model", "gpt2");  // llama.cpp's name for byte-level BPE
  const text::Pretokenizer& pre = tok.pretokenizer();
  if (pre.stages() == 1 && pre.pattern(0) == text::kGpt2Pattern) w.add_string("tokenizer.ggml.pre", "gpt-2");
  else if (pre.stages() == 1 && pre.pattern(0) == text::kLlama3Pattern) w.add_string("tokenizer.ggml.pre", "llama-bpe");
  w.add_strings("tokenizer.ggml.tokens", tokens);
  w.add_i32s("tokenizer.ggml.token_type", types);
  w.add_strings("tokenizer.ggml.merges", merges);
  const auto id_of = [&](std::initializer_list<const char*> names) -> std::optional<Id> {
    for (const char* n : names)
      if (auto id = tok.find(n)) return id;
    return std::nullopt;
  };
  const auto bos = id_of({"<|begin_of_text|>", "<|endoftext|>", "<s>"});
  const auto eos = id_of({"<|end_of_text|>", "<|endoftext|>", "</s>"});
  if (bos) w.add_u32("tokenizer.ggml.bos_token_id", static_cast<std::uint32_t>(*bos));
  if (eos) w.add_u32("tokenizer.ggml.eos_token_id", static_cast<std::uint32_t>(*eos));
  w.add_bool("tokenizer.ggml.add_bos_token", family == Family::llama && bos.has_value());
}

}  // namespace

std::size_t gguf_row_of_hf(std::size_t hf_row, std::size_t hs) {
  const std::size_t head = hf_row / hs, r = hf_row % hs, half = hs / 2;
  return head * hs + (r % half) * 2 + r / half;
}

void write_gguf(const std::string& path, const Transformer& model, const text::Tokenizer& tokenizer, DType dtype,
                const std::string& name) {
  if (dtype != DType::f32 && dtype != DType::f16)
    throw UsageError(fmt::format("GGUF weights are written as f32 or f16, not {}", dtype_name(dtype)));
  const Config& c = model.config();
  const nn::ModelShape& s = c.shape;
  if (tokenizer.size() != s.V)
    throw InputError(fmt::format("the tokenizer has {} ids for a model of V = {}", tokenizer.size(), s.V));
  const bool llama = c.family == Family::llama;
  const std::string arch = llama ? "llama" : "gpt2";
  const std::uint64_t V = s.V, C = s.d, F = s.ffn, hs = s.d / s.heads, NQ = s.heads * hs, NKV = s.kv_heads * hs;
  const Weights& w = model.weights();

  io::GgufWriter g;
  g.add_string("general.architecture", arch);
  g.add_string("general.name", name);
  g.add_u32("general.file_type", dtype == DType::f16 ? 1 : 0);
  const auto u32 = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  g.add_u32(arch + ".context_length", u32(s.context));
  g.add_u32(arch + ".embedding_length", u32(C));
  g.add_u32(arch + ".block_count", u32(s.layers));
  g.add_u32(arch + ".feed_forward_length", u32(F));
  g.add_u32(arch + ".attention.head_count", u32(s.heads));
  if (llama) {
    g.add_u32(arch + ".attention.head_count_kv", u32(s.kv_heads));
    g.add_f32(arch + ".attention.layer_norm_rms_epsilon", static_cast<float>(s.norm_eps));
    g.add_f32(arch + ".rope.freq_base", static_cast<float>(s.rope_theta));
    g.add_u32(arch + ".rope.dimension_count", u32(hs));
    g.add_u32(arch + ".vocab_size", u32(V));
  } else {
    g.add_f32(arch + ".attention.layer_norm_epsilon", static_cast<float>(s.norm_eps));
  }
  add_tokenizer(g, tokenizer, c.family);

  const io::GgmlType matrix = type_of(dtype), f32 = type_of(DType::f32);
  add(g, "token_embd.weight", w.wte, V, C, matrix);
  // Llama 3.1's rope_scaling as llama.cpp holds it: each RoPE frequency's divisor (alive until written).
  const std::vector<float> freq_factors =
      llama && (c.rope_factor > 0 || !c.rope_freq_factors.empty()) ? rope_freq_factors(c, hs) : std::vector<float>{};
  if (!freq_factors.empty()) add(g, "rope_freqs.weight", freq_factors, 1, hs / 2, f32);
  if (!llama) add(g, "position_embd.weight", w.wpe, s.context, C, f32);
  // Rearranged copies, alive until the file is written: a Llama's permuted q and k rows, and GPT-2 weights used in
  // place as Conv1D's (in, out), which GGUF holds as (out, in).
  std::deque<std::vector<float>> copies;
  const auto out_in = [&](const Param& p) -> std::span<const float> {
    if (!p.in_out()) return p;
    return copies.emplace_back(p.out_in());
  };
  for (std::size_t i = 0; i < w.blocks.size(); ++i) {
    const BlockWeights& b = w.blocks[i];
    const std::string blk = fmt::format("blk.{}.", i);
    add(g, blk + "attn_norm.weight", b.norm1_w, 1, C, f32);
    add(g, blk + "ffn_norm.weight", b.norm2_w, 1, C, f32);
    if (llama) {
      add(g, blk + "attn_q.weight", copies.emplace_back(permuted(b.qkv_w.data(), NQ, C, hs)), NQ, C, matrix);
      add(g, blk + "attn_k.weight", copies.emplace_back(permuted(b.qkv_w.data() + NQ * C, NKV, C, hs)), NKV, C, matrix);
      add(g, blk + "attn_v.weight", b.qkv_w.data() + (NQ + NKV) * C, NKV, C, matrix);
      add(g, blk + "attn_output.weight", b.attn_proj_w, C, NQ, matrix);
      add(g, blk + "ffn_gate.weight", b.fc_w.data(), F, C, matrix);  // fc_w: the gate rows, then the up rows
      add(g, blk + "ffn_up.weight", b.fc_w.data() + F * C, F, C, matrix);
      add(g, blk + "ffn_down.weight", b.proj_w, C, F, matrix);
    } else {
      add(g, blk + "attn_norm.bias", b.norm1_b, 1, C, f32);
      add(g, blk + "ffn_norm.bias", b.norm2_b, 1, C, f32);
      add(g, blk + "attn_qkv.weight", out_in(b.qkv_w), 3 * C, C, matrix);
      add(g, blk + "attn_qkv.bias", b.qkv_b, 1, 3 * C, f32);
      add(g, blk + "attn_output.weight", out_in(b.attn_proj_w), C, C, matrix);
      add(g, blk + "attn_output.bias", b.attn_proj_b, 1, C, f32);
      add(g, blk + "ffn_up.weight", out_in(b.fc_w), F, C, matrix);
      add(g, blk + "ffn_up.bias", b.fc_b, 1, F, f32);
      add(g, blk + "ffn_down.weight", out_in(b.proj_w), C, F, matrix);
      add(g, blk + "ffn_down.bias", b.proj_b, 1, C, f32);
    }
  }
  add(g, "output_norm.weight", w.normf_w, 1, C, f32);
  if (!llama) add(g, "output_norm.bias", w.normf_b, 1, C, f32);
  if (!w.lm_head.empty()) add(g, "output.weight", w.lm_head, V, C, matrix);
  g.write(path);
}

GgufExport convert_to_gguf(const std::string& checkpoint, const std::string& output, DType dtype,
                           const std::string& tokenizer_path, const ProgressFn& progress) {
  if (dtype != DType::f32 && dtype != DType::f16)
    throw UsageError(fmt::format("GGUF weights are written as f32 or f16, not {}", dtype_name(dtype)));
  std::error_code ec;
  if (!is_gguf_file(checkpoint) &&
      !std::filesystem::exists(std::filesystem::path(checkpoint_dir(checkpoint)) / "config.json", ec))
    throw UsageError(
        fmt::format("{}: not a model; a .gguf output is written from a Hugging Face GPT-2 or Llama "
                    "directory (config.json + model.safetensors) or another .gguf, not from a table",
                    checkpoint));
  LoadReport report;
  const Transformer m = load_checkpoint(checkpoint, &report, progress);
  const auto tok = tokenizer_for(m, checkpoint, tokenizer_path);
  std::vector<std::string> inputs = report.files;
  inputs.push_back(tok->source);
  check_outputs_apart(inputs, {output});
  const std::filesystem::path where(checkpoint);
  const std::string name = (where.has_filename() ? where : where.parent_path()).stem().string();
  write_gguf(output, m, *tok, dtype, name);
  const nn::ModelShape& s = m.shape();
  const auto bytes = std::filesystem::file_size(output, ec);
  return {.source = checkpoint,
          .output = output,
          .family = std::string(family_name(m.config().family)),
          .dtype = std::string(dtype_name(dtype)),
          .tokenizer = tok->source,
          .V = s.V,
          .layers = s.layers,
          .parameters = report.parameters,
          .bytes = ec ? 0 : static_cast<std::uint64_t>(bytes),
          .tied = m.tied()};
}

nlohmann::json gguf_export_json(const GgufExport& e) {
  return {{"in", e.source},           {"out", e.output}, {"family", e.family}, {"dtype", e.dtype},
          {"tokenizer", e.tokenizer}, {"V", e.V},        {"layers", e.layers}, {"parameters", e.parameters},
          {"tied", e.tied},           {"bytes", e.bytes}};
}

}  // namespace lumen::model
