// GGUF models: each Hugging Face fixture written as GGUF (model::write_gguf) and read back runs to the same logits
// (f32: bit for bit; f16: within the rounding of its weights), with its own tokenizer; a Llama's q/k rows go
// through GGUF's interleaved order and back; Llama 3.1's rope scaling goes as rope_freqs.weight, llama.cpp's
// frequency divisors; other architectures are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/config.hpp"
#include "lumen/model/gguf_export.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "support/gguf_builder.hpp"

using namespace lumen;
namespace fs = std::filesystem;

namespace test_gguf_checkpoint {

std::string fixture(const std::string& name) { return std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/" + name; }

class GgufModel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fs::path("lumen-gguf-model-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string out(const std::string& name) const { return (dir_ / name).string(); }

  // Writes the fixture as GGUF and returns the worst |difference| of the logits relative to the largest logit.
  double round_trip(const std::string& name, DType dtype) {
    const model::Transformer hf = model::load_checkpoint(fixture(name));
    const auto tok = model::tokenizer_for(hf, fixture(name));
    const std::string path = out(name + ".gguf");
    model::write_gguf(path, hf, *tok, dtype, name);
    model::LoadReport report;
    const model::Transformer g = model::load_checkpoint(path, &report);
    EXPECT_EQ(g.tied(), hf.tied());
    EXPECT_EQ(g.shape().V, hf.shape().V);
    EXPECT_EQ(g.shape().kv_heads, hf.shape().kv_heads);
    EXPECT_EQ(report.dtype, dtype == DType::f32 ? "F32" : "mixed (F16, F32)");
    EXPECT_EQ(model::read_config(path).family, hf.config().family);

    // The file's own tokenizer gives the ids the checkpoint's does.
    const auto gtok = model::tokenizer_for(g, path);
    const std::string text = "hello world, the cat sat on the mat\n";
    EXPECT_EQ(gtok->encode(text), tok->encode(text));
    EXPECT_EQ(gtok->decode(gtok->encode(text)), text);

    const auto wide = tok->encode(text);
    const std::vector<std::int32_t> ids(wide.begin(), wide.end());
    const auto a = hf.forward(ids), b = g.forward(ids);
    double scale = 0, err = 0;
    for (std::size_t i = 0; i < a.logits.size(); ++i) {
      scale = std::max(scale, std::abs(double(a.logits[i])));
      err = std::max(err, std::abs(double(a.logits[i]) - b.logits[i]));
    }
    EXPECT_GT(scale, 0.5);
    return err / scale;
  }

  fs::path dir_;
};

TEST_F(GgufModel, Gpt2TiedF32IsBitForBit) { EXPECT_EQ(round_trip("gpt2", DType::f32), 0.0); }
TEST_F(GgufModel, Gpt2UntiedF32IsBitForBit) { EXPECT_EQ(round_trip("gpt2-untied-bf16", DType::f32), 0.0); }
TEST_F(GgufModel, LlamaGqaF32IsBitForBit) { EXPECT_EQ(round_trip("llama-sharded", DType::f32), 0.0); }
TEST_F(GgufModel, LlamaRopeScaledF32IsBitForBit) {
  // Llama 3.1's rope_scaling (config.json) written as rope_freqs.weight and read back as the same divisors.
  EXPECT_EQ(round_trip("llama-tied-f16", DType::f32), 0.0);
  const model::Config hf = model::load_checkpoint(fixture("llama-tied-f16")).config();
  const model::Config g = model::load_checkpoint(out("llama-tied-f16.gguf")).config();
  const std::size_t hs = hf.shape.d / hf.shape.heads;
  const std::vector<float> want = model::rope_freq_factors(hf, hs);
  EXPECT_EQ(g.rope_freq_factors, want);
  EXPECT_EQ(model::rope_freq_factors(g, hs), want);
  // The fixture's scaling (original context 16) divides the long wavelengths by its factor 8, blends the rest.
  EXPECT_EQ(want.back(), 8.0f);
  EXPECT_LT(want.front(), want.back());
  EXPECT_TRUE(std::any_of(want.begin(), want.end(), [](float f) { return f > 1.0f && f < 8.0f; }));
  // An unscaled model has no divisors to write, and reads as all 1.
  const model::Config plain = model::load_checkpoint(fixture("llama-sharded")).config();
  EXPECT_TRUE(plain.rope_freq_factors.empty());
  EXPECT_EQ(model::rope_freq_factors(plain, hs), std::vector<float>(hs / 2, 1.0f));
  model::Config wrong = g;
  wrong.rope_freq_factors.pop_back();
  EXPECT_THROW(model::rope_freq_factors(wrong, hs), InputError);
}

TEST_F(GgufModel, F16WithinItsRounding) {
  EXPECT_LT(round_trip("gpt2", DType::f16), 1e-2);
  EXPECT_LT(round_trip("llama-sharded", DType::f16), 1e-2);
}

TEST(GgufRows, QueryRowsInterleaveHalvesPerHead) {
  // hs 4: HF rows (0 1 | 2 3) pair 0 with 2 and 1 with 3; GGUF puts pairs side by side: 0 2 1 3.
  EXPECT_EQ(model::gguf_row_of_hf(0, 4), 0u);
  EXPECT_EQ(model::gguf_row_of_hf(2, 4), 1u);
  EXPECT_EQ(model::gguf_row_of_hf(1, 4), 2u);
  EXPECT_EQ(model::gguf_row_of_hf(3, 4), 3u);
  EXPECT_EQ(model::gguf_row_of_hf(6, 4), 5u);  // the second head, shifted by hs
  std::vector<bool> seen(64);
  for (std::size_t r = 0; r < 64; ++r) seen.at(model::gguf_row_of_hf(r, 8)) = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 64);
}

TEST_F(GgufModel, RefusesOtherArchitecturesByName) {
  test::GgufBuilder w;
  w.add_string("general.architecture", "qwen2");
  w.tensors.push_back({"token_embd.weight", {4, 2}, 0, std::string(32, '\0')});
  const std::string path = out("qwen.gguf");
  { std::ofstream(path, std::ios::binary) << w.bytes(); }
  try {
    (void)model::load_checkpoint(path);
    FAIL() << "a qwen2 GGUF was loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("architecture 'qwen2'"), std::string::npos) << e.what();
  }
}

TEST_F(GgufModel, RefusesWhatItCannotWrite) {
  const model::Transformer scaled = model::load_checkpoint(fixture("llama-tied-f16"));
  const auto tok = model::tokenizer_for(scaled, fixture("llama-tied-f16"));
  const model::Transformer m = model::load_checkpoint(fixture("gpt2"));
  EXPECT_THROW(model::write_gguf(out("bf.gguf"), m, *tok, DType::bf16, "x"), UsageError);
  // A table is not a model.
  { std::ofstream(out("t.vec")) << "2 2\na 1 0\nb 0 1\n"; }
  EXPECT_THROW(model::convert_to_gguf(out("t.vec"), out("t.gguf"), DType::f32), UsageError);
  // Never over an input.
  EXPECT_THROW(model::convert_to_gguf(fixture("gpt2"), fixture("gpt2/model.safetensors"), DType::f32), UsageError);
}

TEST_F(GgufModel, ConvertReportsWhatItWrote) {
  const auto e = model::convert_to_gguf(fixture("gpt2-untied-bf16"), out("m.gguf"), DType::f16);
  EXPECT_EQ(e.family, "gpt2");
  EXPECT_FALSE(e.tied);
  EXPECT_EQ(e.dtype, "f16");
  EXPECT_EQ(e.bytes, fs::file_size(out("m.gguf")));
  const auto j = model::gguf_export_json(e);
  EXPECT_EQ(j["V"], 300);
  EXPECT_EQ(text::load_tokenizer(out("m.gguf"))->size(), 300u);
}

}  // namespace test_gguf_checkpoint
