#pragma once
// Writing a model as a GGUF file that llama.cpp runs (`lumen convert MODEL_DIR model.gguf`), and that
// load_checkpoint reads back:
//   metadata  general.architecture "gpt2" or "llama", ARCH.context_length, embedding_length, block_count,
//             feed_forward_length, attention.head_count (+ head_count_kv, rope.freq_base and rope.dimension_count
//             for Llama), the norm's epsilon, general.file_type (0 all F32, 1 mostly F16)
//   tokenizer tokenizer.ggml.model "gpt2" (byte-level BPE), .pre ("gpt-2" or "llama-bpe", from the tokenizer's
//             regex), .tokens in their byte-level spelling, .token_type, .merges by rank, bos/eos ids
//   tensors   llama.cpp's names (token_embd, position_embd, blk.N.attn_qkv / attn_q, attn_k, attn_v, attn_output,
//             ffn_up / ffn_gate / ffn_down, the norms, output_norm, output when untied); 2-D weights F16 when asked,
//             norms, biases and positions always F32 (as llama.cpp's converter keeps them). A Llama's query and key
//             rows are permuted into the interleaved pairs ggml's RoPE rotates (convert_hf_to_gguf's permute).
// The file is written atomically; a tensor is converted only while it is written.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "lumen/core/dtype.hpp"
#include "lumen/core/progress.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// dtype: f32 or f16 for the 2-D weights. name: general.name. Llama 3.1's rope scaling goes as rope_freqs.weight.
// Throws UsageError for another dtype, InputError for a tokenizer whose size is not the model's V.
void write_gguf(const std::string& path, const Transformer& model, const text::Tokenizer& tokenizer, DType dtype,
                const std::string& name);

// `lumen convert MODEL model.gguf`: what was written.
struct GgufExport {
  std::string source, output;  // the checkpoint read, the file written
  std::string family;          // "gpt2" or "llama"
  std::string dtype;           // of the 2-D weights: "f32" or "f16"
  std::string tokenizer;       // where the tokens and merges came from
  std::uint64_t V = 0, layers = 0, parameters = 0, bytes = 0;
  bool tied = true;
};

// Loads the checkpoint (a Hugging Face directory, or a .gguf) and its tokenizer (tokenizer_path, else the one
// beside it, as `lumen gpt` finds it) and writes `output`, never over one of the inputs (UsageError).
GgufExport convert_to_gguf(const std::string& checkpoint, const std::string& output, DType dtype,
                           const std::string& tokenizer_path = "", const ProgressFn& progress = {});

// {"in", "out", "family", "dtype", "tokenizer", "V", "layers", "parameters", "tied", "bytes"}.
nlohmann::json gguf_export_json(const GgufExport& e);

// Where row hf_row of a Llama's q (or k) weight in Hugging Face's order lies in GGUF's: within each head of hs
// rows, GGUF interleaves the two halves that HF's rotate-half RoPE pairs (i and i + hs/2 become 2i and 2i + 1).
std::size_t gguf_row_of_hf(std::size_t hf_row, std::size_t hs);

}  // namespace lumen::model
