// Weights used in place: a Param views a checkpoint's map (nothing copied) when the tensor is F32 (and, for the
// blocks' linear weights, F16 or BF16, kept at half size), GPT-2's Conv1D
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

  // BF16: the blocks' linear weights, E and the head are kept at half size in place; the norms are converted.
  const model::Transformer bf16 = model::load_checkpoint(fixture("gpt2-untied-bf16"));
  for (const auto* p : {&bf16.weights().wte, &bf16.weights().lm_head}) {
    EXPECT_TRUE(p->borrowed());
    EXPECT_EQ(p->dtype(), DType::bf16);
  }
  EXPECT_FALSE(bf16.weights().blocks[0].norm1_w.borrowed());
  for (const auto& b : bf16.weights().blocks)
    for (const auto* p : {&b.qkv_w, &b.attn_proj_w, &b.fc_w, &b.proj_w}) {
      EXPECT_TRUE(p->borrowed());
      EXPECT_EQ(p->dtype(), DType::bf16);
      EXPECT_TRUE(p->in_out());
    }

  const model::Transformer llama = model::load_checkpoint(fixture("llama-sharded"));  // F32 in two shards
  EXPECT_TRUE(llama.weights().wte.borrowed());
  EXPECT_TRUE(llama.weights().blocks[0].attn_proj_w.borrowed());
  EXPECT_TRUE(llama.weights().blocks[0].proj_w.borrowed());
  // q, k and v as a stack of three views, gate and up of two: nothing joined.
  for (const auto* stack : {&llama.weights().blocks[0].qkv_w, &llama.weights().blocks[0].fc_w}) {
    ASSERT_NE(stack->parts(), nullptr);
    for (const auto& part : *stack->parts()) EXPECT_TRUE(part.borrowed());
  }
  EXPECT_EQ(llama.weights().blocks[0].qkv_w.parts()->size(), 3u);
}

TEST(Param, GgufF32IsUsedInPlaceAndOnlyLlamaQueryAndKeyRowsAreCopied) {
  const fs::path dir = fs::temp_directory_path() / ("lumen-param-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const std::string name : {"gpt2", "llama-sharded"}) {
    const model::Transformer hf = model::load_checkpoint(fixture(name));
    const std::string path = (dir / (name + ".gguf")).string();
    model::write_gguf(path, hf, *model::tokenizer_for(hf, fixture(name)), DType::f32, name);
    const model::Transformer g = model::load_checkpoint(path);
    EXPECT_TRUE(g.weights().wte.borrowed()) << name;
    EXPECT_TRUE(g.weights().blocks[0].proj_w.borrowed()) << name;
    EXPECT_FALSE(g.weights().blocks[0].proj_w.in_out()) << name;  // GGUF holds (out, in)
    EXPECT_TRUE(g.weights().blocks[0].qkv_w.borrowed()) << name;
    if (name == "gpt2") continue;
    // Llama's q and k: unpermuted copies; v, gate and up in place.
    const auto& qkv = *g.weights().blocks[0].qkv_w.parts();
    EXPECT_FALSE(qkv[0].borrowed());
    EXPECT_FALSE(qkv[1].borrowed());
    EXPECT_TRUE(qkv[2].borrowed());
    for (const auto& part : *g.weights().blocks[0].fc_w.parts()) EXPECT_TRUE(part.borrowed());
  }
  fs::remove_all(dir);
}

TEST(Param, AHalfViewWidensOnceWhenReadAsF32) {
  // (in 2, out 3) in f16: 1, 2, 3 / 4, 5, 6 are exact.
  auto keep = std::make_shared<std::vector<std::uint16_t>>();
  for (float v : {1, 2, 3, 4, 5, 6}) keep->push_back(f32_to_f16(v));
  model::Param p = model::Param::view(Matrix::borrow(keep->data(), 2, 3, DType::f16, keep), true);
  const model::Param& cp = p;
  EXPECT_EQ(cp.dtype(), DType::f16);
  EXPECT_EQ(cp.half(), keep->data());
  EXPECT_FALSE(cp.widened());
  const model::Param shared = p;
  EXPECT_EQ(std::vector<float>(cp.begin(), cp.end()), (std::vector<float>{1, 2, 3, 4, 5, 6}));  // the view's layout
  EXPECT_TRUE(cp.widened());
  EXPECT_EQ(shared.data(), cp.data());  // one widened copy for the view
  EXPECT_EQ(cp.out_in(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(model::Param::view(Matrix::borrow(keep->data(), 3, 2, DType::f16, keep)).out_in(),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));  // (out, in) already; widened without a kept copy
  p[1] = 7;                                           // writing owns f32 (out, in)
  EXPECT_EQ(cp.dtype(), DType::f32);
  EXPECT_EQ(cp.half(), nullptr);
  EXPECT_EQ(p.values(), (std::vector<float>{1, 7, 2, 5, 3, 6}));
  EXPECT_EQ(shared.dtype(), DType::f16);
}

TEST(Param, AStackJoinsItsPartsOnlyWhenReadAsF32) {
  auto keep = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4});  // (2 rows, in 2)
  model::Param stack =
      model::Param::stack({model::Param::view(Matrix::borrow(keep->data(), 2, 2, DType::f32, keep)), {{5, 6}}});
  const model::Param& cs = stack;
  EXPECT_EQ(cs.size(), 6u);
  EXPECT_TRUE(cs.borrowed());
  ASSERT_NE(cs.parts(), nullptr);
  EXPECT_EQ(cs.out_in(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(cs.widened());
  EXPECT_EQ(std::vector<float>(cs.begin(), cs.end()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(cs.widened());
  stack[5] = 7;  // writing owns the joined rows
  EXPECT_EQ(cs.parts(), nullptr);
  EXPECT_EQ(stack.values(), (std::vector<float>{1, 2, 3, 4, 5, 7}));
  EXPECT_EQ((*keep)[3], 4.0f);
  // A part stored (in, out) cannot be stacked as rows.
  EXPECT_THROW(model::Param::stack({model::Param::view(Matrix::borrow(keep->data(), 2, 2, DType::f32, keep), true)}),
               Error);
}

// The largest |a - b| over the largest |a|, with |a| checked to be more than noise.
double relative_error(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  double scale = 0, err = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    scale = std::max(scale, std::abs(double(a[i])));
    err = std::max(err, std::abs(double(a[i]) - b[i]));
  }
  EXPECT_GT(scale, 0.1);
  return err / scale;
}

TEST(Param, HalfWeightsRunWithoutWideningAndGiveTheWidenedLogits) {
  // bf16 safetensors (GPT-2, Conv1D (in, out)) and an f16 GGUF (Llama and GPT-2, (out, in)): the forward widens
  // tiles, never a whole weight, and its logits are those of the same values widened and owned.
  const fs::path dir = fs::temp_directory_path() / ("lumen-param-half-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> paths{fixture("gpt2-untied-bf16"), fixture("llama-tied-f16")};
  for (const std::string name : {"gpt2", "llama-sharded"}) {
    const model::Transformer hf = model::load_checkpoint(fixture(name));
    paths.push_back((dir / (name + "-f16.gguf")).string());
    model::write_gguf(paths.back(), hf, *model::tokenizer_for(hf, fixture(name)), DType::f16, name);
  }
  for (const auto& path : paths) {
    const model::Transformer half = model::load_checkpoint(path);
    EXPECT_NE(half.weights().blocks[0].proj_w.dtype(), DType::f32) << path;
    model::Weights owned = half.weights();
    for (auto* p : model::tensors(owned)) p->values();
    const model::Transformer wide(half.config(), std::move(owned));
    for (const std::vector<std::int32_t>& ids :
         {std::vector<std::int32_t>{7}, std::vector<std::int32_t>{3, 1, 4, 1, 5}}) {
      const auto a = half.forward(ids), b = wide.forward(ids);
      EXPECT_LT(relative_error(a.logits, b.logits), 1e-6) << path << " T = " << ids.size();
    }
    EXPECT_NE(half.weights().wte.dtype(), DType::f32) << path;
    for (const auto* p : matrices(half)) EXPECT_FALSE(p->widened()) << path;
    EXPECT_FALSE(half.weights().lm_head.widened()) << path;
  }
  fs::remove_all(dir);
}

TEST(Param, InPlaceLogitsEqualOwnedOnes) {
  // The same checkpoint with every tensor owned in (out, in) layout (what a model fresh from training holds) runs
  // to the logits of the one read in place (GPT-2's Conv1D views, Llama's stacks), at every length (T = 1 takes the
  // matrix-vector path).
  for (const std::string name : {"gpt2", "llama-sharded"}) {
    const model::Transformer mapped = model::load_checkpoint(fixture(name));
    model::Weights owned = mapped.weights();
    for (auto* p : model::tensors(owned)) p->values();
    const model::Transformer copy(mapped.config(), std::move(owned));
    for (const auto* p : matrices(copy)) EXPECT_FALSE(p->borrowed());
    for (const std::vector<std::int32_t>& ids :
         {std::vector<std::int32_t>{7}, std::vector<std::int32_t>{3, 1, 4, 1, 5}}) {
      const auto a = mapped.forward(ids), b = copy.forward(ids);
      EXPECT_LT(relative_error(a.logits, b.logits), 1e-6) << name << " T = " << ids.size();
    }
    for (const auto* p : matrices(mapped)) EXPECT_FALSE(p->widened()) << name;
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
