#pragma once
// A GPT-2-shaped checkpoint for tests: model.safetensors with wte.weight (50257,768) ~ N(0, 0.02) and
// wpe.weight (1024,768) ~ N(0, 0.01), random through lumen::Rng, stored F16 (77 MB rather than 154 MB of F32),
// and beside it a tokenizer.json made from GPT-2's encoder.json + vocab.bpe (as Hugging Face ships one).
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

// By path, so tests/cli (which links no lumen library) can write one too; both headers are self-contained.
#include "../../include/lumen/core/dtype.hpp"
#include "../../include/lumen/core/rng.hpp"

namespace lumen::text::testing {

inline constexpr std::size_t kGpt2V = 50257, kGpt2d = 768, kGpt2Ctx = 1024;

// GPT-2's pair as a Hugging Face tokenizer.json (ByteLevel pre-tokenizer, <|endoftext|> added).
inline nlohmann::json gpt2_tokenizer_json(const std::string& gpt2_dir) {
  using nlohmann::json;
  std::ifstream enc(gpt2_dir + "/encoder.json");
  json vocab = json::parse(enc);
  std::ifstream bpe(gpt2_dir + "/vocab.bpe");
  json merges = json::array();
  for (std::string line; std::getline(bpe, line);)
    if (!line.empty() && !line.starts_with("#version")) merges.push_back(line);
  return json{{"version", "1.0"},
              {"added_tokens", json::array({json{{"id", 50256}, {"content", "<|endoftext|>"}, {"special", true}}})},
              {"normalizer", nullptr},
              {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}}},
              {"decoder", {{"type", "ByteLevel"}}},
              {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}}}};
}

// Writes dir/model.safetensors and dir/tokenizer.json; returns the safetensors path.
inline std::string write_gpt2_checkpoint(const std::filesystem::path& dir, const std::string& gpt2_dir,
                                         std::uint64_t seed = 2019) {
  std::filesystem::create_directories(dir);
  struct T {
    std::string name;
    std::size_t rows;
    double std;
  };
  const std::vector<T> tensors = {{"wte.weight", kGpt2V, 0.02}, {"wpe.weight", kGpt2Ctx, 0.01}};
  nlohmann::json header = {{"__metadata__", {{"format", "pt"}}}};
  std::size_t offset = 0;
  for (auto& t : tensors) {
    const std::size_t n = t.rows * kGpt2d * 2;
    header[t.name] = {{"dtype", "F16"}, {"shape", {t.rows, kGpt2d}}, {"data_offsets", {offset, offset + n}}};
    offset += n;
  }
  std::string h = header.dump();
  while (h.size() % 8) h += ' ';
  const std::string path = (dir / "model.safetensors").string();
  std::ofstream out(path, std::ios::binary);
  const std::uint64_t hn = h.size();
  out.write(reinterpret_cast<const char*>(&hn), 8);  // little-endian on x86-64
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  Rng rng(seed);
  std::vector<std::uint16_t> buf(kGpt2d);
  for (auto& t : tensors)
    for (std::size_t r = 0; r < t.rows; ++r) {
      for (auto& x : buf) x = f32_to_f16(static_cast<float>(rng.normal() * t.std));
      out.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(buf.size() * 2));
    }
  out.close();
  std::ofstream(dir / "tokenizer.json") << gpt2_tokenizer_json(gpt2_dir).dump();
  return path;
}

// A checkpoint in a temporary directory, written on first use and removed when the test binary exits.
class TempGpt2Checkpoint {
 public:
  TempGpt2Checkpoint(std::filesystem::path dir, std::string gpt2_dir)
      : dir_(std::move(dir)), gpt2_dir_(std::move(gpt2_dir)) {}
  ~TempGpt2Checkpoint() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  const std::string& path() {
    if (path_.empty()) path_ = write_gpt2_checkpoint(dir_, gpt2_dir_);
    return path_;
  }

 private:
  std::filesystem::path dir_;
  std::string gpt2_dir_, path_;
};

}  // namespace lumen::text::testing
