#pragma once
// Loading a Hugging Face checkpoint directory (or a GGUF file): config.json, then model.safetensors or the shards that
// model.safetensors.index.json lists (model-0000N-of-0000M.safetensors), memory-mapped, f32/f16/bf16 converted to
// f32. GPT-2 names (an optional "transformer." prefix; Conv1D weights stored (in, out); c_attn holding q, k, v)
// and Llama names ("model." prefix; q/k/v/o_proj, gate/up/down_proj, input_layernorm, post_attention_layernorm,
// norm, lm_head). A missing lm_head.weight means tied. Buffers that are not parameters (GPT-2's attn.bias mask,
// rotary_emb.inv_freq) are skipped.
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/model/transformer.hpp"

namespace lumen::model {

struct LoadReport {
  std::vector<std::string> files;  // the safetensors files read
  std::string dtype;               // of the weights: "F32", "BF16", "F16" or "mixed"
  std::string head;                // "tied (config tie_word_embeddings)", "tied (no lm_head.weight)", "untied"
  std::size_t tensors = 0;
  std::size_t parameters = 0;
};

// Where `path` points: a checkpoint directory, or a file inside one (config.json, model.safetensors).
std::string checkpoint_dir(const std::string& path);

// `path` may also be a .gguf file (architectures gpt2 and llama; model/gguf_checkpoint.hpp).
// Throws IoError (unreadable), ParseError (malformed file), InputError naming the file and the tensor for a missing
// or extra tensor, a shape that disagrees with config.json, an unsupported dtype, or a NaN or infinite weight.
// progress(done, total) is called per tensor. F32 weights are used in place in the file's map (model/param.hpp),
// which the model keeps open; other types are converted to owned f32.
Transformer load_checkpoint(const std::string& path, LoadReport* report = nullptr, const ProgressFn& progress = {});

// The loader over bytes in memory: config.json text and one safetensors file (fuzzing, tests). F32 weights are used
// in place: `safetensors` must outlive the model.
Transformer load_checkpoint_from_memory(std::string_view config_json, std::string_view safetensors,
                                        LoadReport* report = nullptr);

}  // namespace lumen::model
