#pragma once
// A checkpoint's config.json (Hugging Face GPT-2 or Llama) as the nn::ModelShape that `lumen params` counts, so
// the calculator and the model that runs cannot disagree.
#include <string>
#include <vector>

#include "lumen/nn/params.hpp"

namespace lumen::model {

enum class Family { gpt2, llama };

struct Config {
  nn::ModelShape shape;
  Family family = Family::gpt2;
  std::string model_type;  // config.json's model_type ("gpt2", "llama")
  std::string path;        // the config.json read
  // Llama 3.1's rope_scaling {"rope_type": "llama3", ...}; factor 0: none.
  double rope_factor = 0, rope_low_freq_factor = 1, rope_high_freq_factor = 4, rope_original_context = 8192;
  // The same scaling as a GGUF holds it (rope_freqs.weight, llama.cpp's "freq factors"): RoPE frequency i is
  // divided by rope_freq_factors[i] (hs / 2 of them). Empty: none, or rope_factor's.
  std::vector<float> rope_freq_factors;
};

// The divisor of each RoPE frequency (hs / 2) under Llama 3.1's rope_scaling as transformers applies it
// (_compute_llama3_parameters): 1 for short wavelengths, rope_factor for long ones, a smooth blend between; or
// rope_freq_factors as given. All 1 when the model is not scaled.
std::vector<float> rope_freq_factors(const Config& c, std::size_t hs);

// Parses config.json text. Throws ParseError (not JSON) or InputError naming `path` and the field for a missing,
// mistyped or out-of-range field (sizes 1 .. 2^24 (V up to 2^31), heads dividing d, kv-heads dividing heads, an
// even head size for RoPE, eps and theta finite and > 0) and for a model_type other than gpt2 or llama.
Config parse_config(std::string_view json_text, const std::string& path);
// Reads DIR/config.json (or the file itself if `path` is a .json file; a .gguf's metadata). Throws IoError if it
// cannot be read.
Config read_config(const std::string& path);

// What `lumen params NAME` and Python's lumen.params(NAME) count: a preset (nn::preset_names(); "" is gpt2) or,
// for a path that exists, its checkpoint's config.json (a directory, its config.json, or any file in it such as
// model.safetensors) or a GGUF's metadata, the shape named "TYPE (PATH)". Throws UsageError for a name that is neither,
// saying both.
nn::ModelShape shape_named(const std::string& name);

std::string_view family_name(Family f);

}  // namespace lumen::model
