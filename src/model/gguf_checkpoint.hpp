#pragma once
// A GGUF file as a checkpoint (architectures gpt2 and llama): its metadata as the Config that config.json would
// give, and its tensors, under llama.cpp's names, as the Weights the transformer runs. load_checkpoint and
// read_config come here for a .gguf.
#include <string>

#include "lumen/core/progress.hpp"
#include "lumen/model/checkpoint.hpp"

namespace lumen::model {

// True for a regular file whose first bytes are GGUF's magic.
bool is_gguf_file(const std::string& path);

// Throws InputError naming the file and the key for another architecture, a missing or out-of-range key, or a
// Llama 3.1 rope scaling (rope_freqs.weight), which lumen does not read yet.
Config read_gguf_config(const std::string& path);

// Throws as load_checkpoint does, naming GGUF's tensor names; F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K weights
// are read, a Llama's q and k rows put back in Hugging Face's order.
Transformer load_gguf_checkpoint(const std::string& path, LoadReport* report, const ProgressFn& progress);

}  // namespace lumen::model
