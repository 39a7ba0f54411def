// Weights used in place: a Param views a checkpoint's map (nothing copied) when the tensor is F32, GPT-2's Conv1D
// weights stay (in, out) for the GEMM's transpose flag, and anything that writes gets an owned (out, in) copy first.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "lumen/model/checkpoint.hpp"
#include "lumen/model/gguf_export.hpp"
#include "lumen/model/gpt_backprop.hpp"
#include "lumen/model/model_tokenizer.hpp"

using namespace lumen;
namespace fs = std::filesystem;

namespace test_param {

std::string fixture(const std::string& name) { return std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/" + name; }

TEST(Param, AViewIsCopiedOnWriteAndTransposedToOutIn) {
  auto keep = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4, 5, 6});  // (in 2, out 3)
  model::Param p = model::Param::view(Matrix::borrow(keep->data(), 2, 3, DType::f32, keep), true);
  const model::Param& cp = p;
  EXPECT_TRUE(cp.borrowed());
  EXPECT_TRUE(cp.in_out());
  EXPECT_EQ(cp.data(), keep->data());  // in place
  EXPECT_EQ(cp.size(), 6u);
  EXPECT_EQ(cp.out_in(), (std::vector<float>{1, 4, 2, 5, 3, 6}));  // (out 3, in 2)

  model::Param shared = p;  // a copy shares the view
  EXPECT_EQ(static_cast<const model::Param&>(shared).data(), keep->data());
  p[0] = 10;  // writing owns: (out, in), the map's bytes untouched
  EXPECT_FALSE(cp.borrowed());
  EXPECT_FALSE(cp.in_out());
  EXPECT_EQ(p.values(), (std::vector<float>{10, 4, 2, 5, 3, 6}));
  EXPECT_EQ((*keep)[0], 1.0f);
  EXPECT_TRUE(static_cast<const model::Param&>(shared).borrowed());

  shared.assign(2, 0.5f);
  EXPECT_FALSE(static_cast<const model::Param&>(shared).borrowed());
  EXPECT_EQ(shared.values(), (std::vector<float>{0.5f, 0.5f}));
  EXPECT_THROW(model::Param::view(Matrix(2, 2)), Error);  // an owned matrix is no view
}

// Every linear weight of the loaded model, and E.
std::vector<const model::Param*> matrices(const model::Transformer& m) {
  const model::Weights& w = m.weights();
  std::vector<const model::Param*> out{&w.wte};
  for (const auto& b : w.blocks)
    for (const auto* p : {&b.qkv_w, &b.attn_proj_w, &b.fc_w, &b.proj_w}) out.push_back(p);
  return out;
}

TEST(Param, F32CheckpointsAreUsedInPlace) {
  const model::Transformer gpt2 = model::load_checkpoint(fixture("gpt2"));  // F32: all in place
  for (const auto* p : matrices(gpt2)) EXPECT_TRUE(p->borrowed());
  EXPECT_FALSE(gpt2.weights().wte.in_out());
  EXPECT_TRUE(gpt2.weights().blocks[0].qkv_w.in_out());  // Conv1D, read with the transpose flag
  EXPECT_TRUE(gpt2.weights().blocks[0].norm1_w.borrowed());

  const model::Transformer bf16 = model::load_checkpoint(fixture("gpt2-untied-bf16"));  // converted: owned
  for (const auto* p : matrices(bf16)) EXPECT_FALSE(p->borrowed());
  EXPECT_FALSE(bf16.weights().blocks[0].qkv_w.in_out());

  const model::Transformer llama = model::load_checkpoint(fixture("llama-sharded"));  // F32 in two shards
  EXPECT_TRUE(llama.weights().wte.borrowed());
  EXPECT_TRUE(llama.weights().blocks[0].attn_proj_w.borrowed());
  EXPECT_TRUE(llama.weights().blocks[0].proj_w.borrowed());
  EXPECT_FALSE(llama.weights().blocks[0].qkv_w.borrowed());  // q, k and v rows joined into one: a copy
}

TEST(Param, GgufF32IsUsedInPlaceAndLlamaQueryRowsAreCopied) {
  const fs::path dir = fs::temp_directory_path() / ("lumen-param-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const std::string name : {"gpt2", "llama-sharded"}) {
    const model::Transformer hf = model::load_checkpoint(fixture(name));
    const std::string path = (dir / (name + ".gguf")).string();
    model::write_gguf(path, hf, *model::tokenizer_for(hf, fixture(name)), DType::f32, name);
    const model::Transformer g = model::load_checkpoint(path);
    EXPECT_TRUE(g.weights().wte.borrowed()) << name;
    EXPECT_TRUE(g.weights().blocks[0].proj_w.borrowed()) << name;
    EXPECT_FALSE(g.weights().blocks[0].proj_w.in_out()) << name;                // GGUF holds (out, in)
    EXPECT_EQ(g.weights().blocks[0].qkv_w.borrowed(), name == "gpt2") << name;  // Llama's: unpermuted, a copy
  }
  fs::remove_all(dir);
}

TEST(Param, InPlaceLogitsEqualOwnedOnes) {
  // The same checkpoint with every tensor owned in (out, in) layout (what a model fresh from training holds) runs
  // to the logits of the one read in place, at every length (T = 1 takes the matrix-vector path).
  const model::Transformer mapped = model::load_checkpoint(fixture("gpt2"));
  model::Weights owned = mapped.weights();
  for (auto* p : model::tensors(owned)) p->values();
  const model::Transformer copy(mapped.config(), std::move(owned));
  for (const auto* p : matrices(copy)) EXPECT_FALSE(p->borrowed());
  for (const std::vector<std::int32_t>& ids :
       {std::vector<std::int32_t>{7}, std::vector<std::int32_t>{3, 1, 4, 1, 5}}) {
    const auto a = mapped.forward(ids), b = copy.forward(ids);
    ASSERT_EQ(a.logits.size(), b.logits.size());
    double scale = 0, err = 0;
    for (std::size_t i = 0; i < a.logits.size(); ++i) {
      scale = std::max(scale, std::abs(double(a.logits[i])));
      err = std::max(err, std::abs(double(a.logits[i]) - b.logits[i]));
    }
    EXPECT_GT(scale, 0.1);
    EXPECT_LT(err / scale, 1e-6) << "T = " << ids.size();
  }
}

TEST(Param, TrainingRefusesAnInOutWeight) {
  const model::Transformer mapped = model::load_checkpoint(fixture("gpt2"));
  const nn::ModelShape& s = mapped.shape();
  model::GptBackprop pass(s, 1, 4);
  const std::vector<std::int32_t> in{1, 2, 3, 4}, tg{2, 3, 4, 5};
  model::Weights g = model::zeros_like(mapped.weights());
  pass.forward(mapped.weights(), in.data(), tg.data(), 1);
  EXPECT_THROW(pass.backward(mapped.weights(), g, in.data(), tg.data(), 1), Error);
}

}  // namespace test_param
