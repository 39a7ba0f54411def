// Loading a Hugging Face GPT-2 or Llama directory. Every tensor of the checkpoint is accounted for: each one the
// architecture needs is taken once (shape checked against config.json, used in place when F32, else converted to
// f32; checked finite) and any left over that is not a known buffer is an error, so a checkpoint of another
// architecture or a different depth never runs half-loaded.
#include "lumen/model/checkpoint.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "io/mapped_file.hpp"
#include "io/safetensors_file.hpp"
#include "lumen/core/dtype.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "model/gguf_checkpoint.hpp"
#include "model/weight_copy.hpp"

namespace lumen::model {

namespace fs = std::filesystem;

namespace {

using Shape = std::vector<std::uint64_t>;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Buffers some checkpoints carry that are not parameters.
bool is_buffer(std::string_view name) {
  return ends_with(name, ".attn.bias") || ends_with(name, ".attn.masked_bias") ||
         ends_with(name, "rotary_emb.inv_freq");
}

// A safetensors dtype (F32, F16 or BF16, checked by the caller) as the ggml type weight_copy reads: ggml's ids.
io::GgmlType stored_type(const std::string& dtype) {
  constexpr std::uint32_t kF32 = 0, kF16 = 1, kBF16 = 30;
  return *io::ggml_type(dtype == "F32" ? kF32 : dtype == "F16" ? kF16 : kBF16);
}

class TensorSet {
 public:
  TensorSet(std::vector<io::SafetensorsFile> files, Family family) : files_(std::move(files)) {
    const std::string_view prefix = family == Family::gpt2 ? "transformer." : "model.";
    for (std::size_t f = 0; f < files_.size(); ++f)
      for (const auto& t : files_[f].tensors) {
        std::string key = t.name;
        if (key.starts_with(prefix)) key = key.substr(prefix.size());
        const auto [it, inserted] = by_name_.emplace(key, Entry{f, &t});
        if (!inserted)
          throw InputError(fmt::format("{}: tensor '{}' is also in {} as '{}'", files_[f].file->path(), t.name,
                                       files_[it->second.file].file->path(), it->second.tensor->name));
      }
  }

  bool has(const std::string& key) const { return by_name_.count(key) != 0; }
  void skip(const std::string& key) { used_.insert(key); }

  // The tensor `key` (prefix removed) of shape `shape`, as f32: used in place in the map when it is F32 (a Conv1D
  // `in_out` weight then stays (in, out) and the GEMM reads it so), else converted (and transposed to (out, in)).
  // keep_half: a matrix the forward reads by tiles or rows (the blocks' linear weights, E, the head), which F16 and
  // BF16 views keep at half size.
  Param take(const std::string& key, const Shape& shape, bool in_out = false, bool keep_half = false) {
    const Found f = find(key, shape);
    if (auto view = weight_in_place(f.file->file, f.at, f.n, f.type, f.tensor->name,
                                    in_out ? static_cast<std::size_t>(shape[0]) : 0, keep_half)) {
      used(key, *f.tensor, f.n);
      return std::move(*view);
    }
    std::vector<float> out;
    take_into(out, key, shape, in_out);
    return out;
  }

  // The tensor converted to f32 and appended to `out` (for Llama's q, k and v rows, one buffer); transposed from
  // (in, out) when `transpose`.
  void take_into(std::vector<float>& out, const std::string& key, const Shape& shape, bool transpose = false) {
    const Found f = find(key, shape);
    const io::MappedFile& file = *f.file->file;
    if (transpose) {  // (in, out) -> (out, in), through one reused buffer
      scratch_.clear();
      append_f32(scratch_, file, f.at, f.n, f.type, f.tensor->name);
      append_transposed(out, scratch_.data(), static_cast<std::size_t>(shape[0]), static_cast<std::size_t>(shape[1]));
    } else {
      append_f32(out, file, f.at, f.n, f.type, f.tensor->name);
    }
    used(key, *f.tensor, f.n);
  }
  // Throws for a tensor nothing took (other than known buffers).
  void check_all_used(const std::string& what) const {
    for (const auto& [key, e] : by_name_)
      if (used_.count(key) == 0 && !is_buffer(key))
        throw InputError(
            fmt::format("{}: extra tensor '{}', not part of {}", files_[e.file].file->path(), e.tensor->name, what));
  }

  std::string where() const {
    std::vector<std::string> names;
    for (const auto& f : files_) names.push_back(f.file->path());
    return fmt::format("{}", fmt::join(names, ", "));
  }
  std::size_t count() const { return by_name_.size(); }
  std::size_t parameters() const { return parameters_; }
  std::string dtype() const {
    if (dtypes_.empty()) return "";
    return dtypes_.size() == 1 ? *dtypes_.begin() : "mixed";
  }
  std::vector<std::string> paths() const {
    std::vector<std::string> p;
    for (const auto& f : files_) p.push_back(f.file->path());
    return p;
  }

 private:
  struct Entry {
    std::size_t file;
    const io::SafetensorsTensor* tensor;
  };
  struct Found {
    const io::SafetensorsFile* file;
    const io::SafetensorsTensor* tensor;
    std::size_t at, n;  // its first byte in the file, its elements
    io::GgmlType type;
  };

  // The tensor `key`, checked to be of shape `shape` and a type the loader reads.
  Found find(const std::string& key, const Shape& shape) const {
    const auto it = by_name_.find(key);
    if (it == by_name_.end()) throw InputError(fmt::format("{}: missing tensor '{}'", where(), key));
    const io::SafetensorsFile& file = files_[it->second.file];
    const io::SafetensorsTensor& t = *it->second.tensor;
    const std::string& path = file.file->path();
    if (t.shape != shape)
      throw InputError(fmt::format("{}: tensor '{}' has shape [{}]; config.json needs [{}]", path, t.name,
                                   fmt::join(t.shape, ", "), fmt::join(shape, ", ")));
    if (t.dtype != "F32" && t.dtype != "F16" && t.dtype != "BF16")
      throw InputError(fmt::format("{}: tensor '{}' is {}; expected F32, F16 or BF16", path, t.name, t.dtype));
    std::size_t n = 1;
    for (auto k : shape) n *= static_cast<std::size_t>(k);
    return {&file, &t, 8 + file.header_bytes + t.begin, n, stored_type(t.dtype)};
  }
  void used(const std::string& key, const io::SafetensorsTensor& t, std::size_t n) {
    dtypes_.insert(t.dtype);
    used_.insert(key);
    parameters_ += n;
  }

  std::vector<io::SafetensorsFile> files_;
  std::map<std::string, Entry> by_name_;
  std::set<std::string> used_;
  std::set<std::string> dtypes_;
  std::size_t parameters_ = 0;
  std::vector<float> scratch_;  // a transposed tensor as stored
};

Weights take_gpt2(TensorSet& ts, const nn::ModelShape& s, const std::function<void()>& tick) {
  const std::uint64_t C = s.d, V = s.V, F = s.ffn;
  Weights w;
  w.wte = ts.take("wte.weight", {V, C}, false, true);
  w.wpe = ts.take("wpe.weight", {s.context, C});
  tick();
  for (std::uint64_t i = 0; i < s.layers; ++i) {
    const std::string h = fmt::format("h.{}.", i);
    BlockWeights b;
    b.norm1_w = ts.take(h + "ln_1.weight", {C});
    b.norm1_b = ts.take(h + "ln_1.bias", {C});
    b.qkv_w = ts.take(h + "attn.c_attn.weight", {C, 3 * C}, true, true);  // Conv1D: (in, out)
    b.qkv_b = ts.take(h + "attn.c_attn.bias", {3 * C});
    b.attn_proj_w = ts.take(h + "attn.c_proj.weight", {C, C}, true, true);
    b.attn_proj_b = ts.take(h + "attn.c_proj.bias", {C});
    b.norm2_w = ts.take(h + "ln_2.weight", {C});
    b.norm2_b = ts.take(h + "ln_2.bias", {C});
    b.fc_w = ts.take(h + "mlp.c_fc.weight", {C, F}, true, true);
    b.fc_b = ts.take(h + "mlp.c_fc.bias", {F});
    b.proj_w = ts.take(h + "mlp.c_proj.weight", {F, C}, true, true);
    b.proj_b = ts.take(h + "mlp.c_proj.bias", {C});
    w.blocks.push_back(std::move(b));
    tick();
  }
  w.normf_w = ts.take("ln_f.weight", {C});
  w.normf_b = ts.take("ln_f.bias", {C});
  return w;
}

Weights take_llama(TensorSet& ts, const nn::ModelShape& s, const std::function<void()>& tick) {
  const std::uint64_t C = s.d, V = s.V, F = s.ffn, hs = s.d / s.heads;
  Weights w;
  w.wte = ts.take("embed_tokens.weight", {V, C}, false, true);
  tick();
  for (std::uint64_t i = 0; i < s.layers; ++i) {
    const std::string l = fmt::format("layers.{}.", i);
    BlockWeights b;
    b.norm1_w = ts.take(l + "input_layernorm.weight", {C});
    // q, k and v as one stack of three, gate and up of two: each part in place.
    b.qkv_w = Param::stack({ts.take(l + "self_attn.q_proj.weight", {s.heads * hs, C}, false, true),
                            ts.take(l + "self_attn.k_proj.weight", {s.kv_heads * hs, C}, false, true),
                            ts.take(l + "self_attn.v_proj.weight", {s.kv_heads * hs, C}, false, true)});
    b.attn_proj_w = ts.take(l + "self_attn.o_proj.weight", {C, s.heads * hs}, false, true);
    b.norm2_w = ts.take(l + "post_attention_layernorm.weight", {C});
    b.fc_w = Param::stack({ts.take(l + "mlp.gate_proj.weight", {F, C}, false, true),
                           ts.take(l + "mlp.up_proj.weight", {F, C}, false, true)});
    b.proj_w = ts.take(l + "mlp.down_proj.weight", {C, F}, false, true);
    w.blocks.push_back(std::move(b));
    tick();
  }
  w.normf_w = ts.take("norm.weight", {C});
  return w;
}

Transformer assemble(Config config, TensorSet& ts, LoadReport* report, const ProgressFn& progress) {
  const nn::ModelShape& s = config.shape;
  std::size_t done = 0;
  const std::size_t total = s.layers + 2;
  const auto tick = [&] {
    if (progress) progress("load", ++done, total);
  };
  Weights w = config.family == Family::gpt2 ? take_gpt2(ts, s, tick) : take_llama(ts, s, tick);
  std::string head;
  if (s.tied) {
    head = "tied (config.json tie_word_embeddings)";
    ts.skip("lm_head.weight");  // transformers ties it to E whatever the file holds
  } else if (ts.has("lm_head.weight")) {
    w.lm_head = ts.take("lm_head.weight", {s.V, s.d}, false, true);
    head = "untied (lm_head.weight)";
  } else {
    head = "tied (no lm_head.weight in the checkpoint)";
    config.shape.tied = true;
  }
  tick();
  ts.check_all_used(fmt::format("a {} model with {} layers", family_name(config.family), s.layers));
  if (report != nullptr) {
    report->files = ts.paths();
    report->dtype = ts.dtype();
    report->head = head;
    report->tensors = ts.count();
    report->parameters = ts.parameters();
  }
  return Transformer(std::move(config), std::move(w));
}

// The shard files model.safetensors.index.json names, in order of first appearance.
std::vector<std::string> shard_files(const std::string& dir, const std::string& index_path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(index_path));
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError(index_path, 0, e.byte > 0 ? e.byte - 1 : 0, fmt::format("invalid JSON: {}", e.what()));
  }
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object() || j["weight_map"].empty())
    throw ParseError(index_path, 0, 0, "expected an object with a non-empty weight_map {tensor: file}");
  std::vector<std::string> files;
  for (const auto& item : j["weight_map"].items()) {
    if (!item.value().is_string())
      throw ParseError(index_path, 0, 0, fmt::format("weight_map['{}']: expected a file name", item.key()));
    const std::string f = item.value().get<std::string>();
    if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f == "." || f == "..")
      throw InputError(fmt::format("{}: weight_map['{}'] is '{}'; expected a file name in the same directory",
                                   index_path, item.key(), f));
    const std::string path = (fs::path(dir) / f).string();
    if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
  }
  return files;
}

}  // namespace

std::string checkpoint_dir(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path;
  if (fs::exists(path, ec)) {
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
  }
  require_regular_file(path);  // throws, saying why it is unreadable: missing, a symlink loop, no permission
  return fs::path(path).parent_path().empty() ? std::string(".") : fs::path(path).parent_path().string();
}

Transformer load_checkpoint(const std::string& path, LoadReport* report, const ProgressFn& progress) {
  if (is_gguf_file(path)) return load_gguf_checkpoint(path, report, progress);
  const std::string dir = checkpoint_dir(path);
  Config config = read_config((fs::path(dir) / "config.json").string());
  const std::string index = (fs::path(dir) / "model.safetensors.index.json").string();
  const std::string single = (fs::path(dir) / "model.safetensors").string();
  std::error_code ec;
  std::vector<std::string> paths;
  if (fs::exists(index, ec)) paths = shard_files(dir, index);
  else if (fs::exists(single, ec)) paths = {single};
  else
    throw InputError(
        fmt::format("{}: no model.safetensors or model.safetensors.index.json (lumen reads Hugging Face "
                    "safetensors checkpoints)",
                    dir));
  std::vector<io::SafetensorsFile> files;
  files.reserve(paths.size());
  for (const auto& p : paths) files.push_back(io::parse_safetensors(io::MappedFile::open(p)));
  TensorSet ts(std::move(files), config.family);
  return assemble(std::move(config), ts, report, progress);
}

Transformer load_checkpoint_from_memory(std::string_view config_json, std::string_view safetensors,
                                        LoadReport* report) {
  Config config = parse_config(config_json, "config.json");
  std::vector<io::SafetensorsFile> files;
  files.push_back(io::parse_safetensors(io::MappedFile::over(safetensors, "model.safetensors")));
  TensorSet ts(std::move(files), config.family);
  return assemble(std::move(config), ts, report, {});
}

}  // namespace lumen::model
