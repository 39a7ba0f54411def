// The parameter calculator: exact preset totals and the pieces they are made of.
#include <gtest/gtest.h>

#include <limits>

#include "lumen/core/error.hpp"
#include "lumen/nn/params.hpp"

using namespace lumen;
using namespace lumen::nn;

TEST(Params, PresetTotalsAreExact) {
  EXPECT_EQ(count_params(preset("gpt2")).total, 124439808u);
  EXPECT_EQ(count_params(preset("gpt2-medium")).total, 354823168u);
  EXPECT_EQ(count_params(preset("gpt2-large")).total, 774030080u);
  EXPECT_EQ(count_params(preset("gpt2-xl")).total, 1557611200u);
  EXPECT_EQ(count_params(preset("llama-3-8b")).total, 8030261248u);
  EXPECT_EQ(count_params(preset("llama-3.2-1b")).total, 1235814400u);
  EXPECT_EQ(preset_names().size(), 6u);
}

TEST(Params, Gpt2SmallPieces) {
  const ParamCount c = count_params(preset("gpt2"));
  EXPECT_EQ(c.token_embedding, 50257u * 768u);  // wte
  EXPECT_EQ(c.positional, 1024u * 768u);        // wpe
  EXPECT_EQ(c.attention, 4u * 768 * 768 + 4u * 768);
  EXPECT_EQ(c.mlp, 8u * 768 * 768 + 5u * 768);
  EXPECT_EQ(c.norms, 4u * 768);
  EXPECT_EQ(c.block, 7087872u);
  EXPECT_EQ(c.final_norm, 1536u);
  EXPECT_EQ(c.output_head, 0u);  // tied
  EXPECT_NEAR(c.embedding_share, 38597376.0 / 124439808.0, 1e-12);
}

TEST(Params, LlamaUntiedHeadAndGroupedQueryAttention) {
  const ParamCount c = count_params(preset("llama-3-8b"));
  EXPECT_EQ(c.output_head, 128256u * 4096u);
  EXPECT_EQ(c.positional, 0u);                                  // RoPE has no parameters
  EXPECT_EQ(c.attention, 2u * 4096 * 4096 + 2u * 4096 * 1024);  // 8 kv heads of 128
  EXPECT_EQ(c.mlp, 3u * 4096 * 14336);
  EXPECT_EQ(c.norms, 2u * 4096);
  EXPECT_NEAR(c.vocab_share, 2.0 * 128256 * 4096 / 8030261248.0, 1e-12);
  // Untying GPT-2 adds exactly one V x d matrix.
  ModelShape s = preset("gpt2");
  s.tied = false;
  EXPECT_EQ(count_params(s).total, 124439808u + 50257u * 768u);
}

TEST(Params, OptionsChangeTheCount) {
  ModelShape s = preset("gpt2");
  s.biases = false;  // no linear biases, LayerNorm without shift
  const ParamCount c = count_params(s);
  EXPECT_EQ(c.block, 12u * 768 * 768 + 2u * 768);
  s.norm = Norm::rmsnorm;
  s.positional = Positional::none;
  s.mlp = Mlp::swiglu;
  s.ffn = 2048;
  const ParamCount r = count_params(s);
  EXPECT_EQ(r.positional, 0u);
  EXPECT_EQ(r.mlp, 3u * 768 * 2048);
  EXPECT_EQ(default_ffn(4096, Mlp::swiglu), 11008u);  // LLaMA-1 7B's width
  EXPECT_EQ(default_ffn(768, Mlp::gelu), 3072u);
}

TEST(Params, BadShapesAreUsageErrors) {
  ModelShape s = preset("gpt2");
  s.heads = 7;
  EXPECT_THROW(count_params(s), UsageError);
  s = preset("gpt2");
  s.kv_heads = 5;
  EXPECT_THROW(count_params(s), UsageError);
  s = preset("gpt2");
  s.V = 0;
  EXPECT_THROW(count_params(s), UsageError);
  EXPECT_THROW(preset("gpt5"), UsageError);
  EXPECT_THROW(parse_norm("batchnorm"), UsageError);
}

TEST(Params, SweepShareFallsAsDAndNGrow) {
  auto shapes = sweep_shapes(preset("gpt2"));
  ASSERT_GE(shapes.size(), 6u);
  double prev = 1.0;
  for (const auto& s : shapes) {
    const double share = count_params(s).embedding_share;
    EXPECT_LT(share, prev) << s.name;
    prev = share;
  }
  EXPECT_LT(prev, 0.01);  // at GPT-3 175B's shape the table is well under 1%
}

TEST(Params, CountsThatWouldWrapAreUsageErrors) {
  // Every count is exact or refused: a shape whose total would pass 2^62 (or wrap 64 bits) is a UsageError.
  ModelShape s = preset("gpt2");
  s.V = std::numeric_limits<std::uint64_t>::max();
  EXPECT_THROW(count_params(s), UsageError);
  s = preset("gpt2");
  s.layers = 10'000'000'000'000;  // x 7e6 per block: 7e19, past 2^64
  EXPECT_THROW(count_params(s), UsageError);
  s = preset("llama-3-8b");
  s.d = std::uint64_t{1} << 62;
  s.heads = s.kv_heads = 1;
  s.ffn = default_ffn(s.d, s.mlp);  // no wrap to a small width
  EXPECT_GE(s.ffn, s.d);
  EXPECT_THROW(count_params(s), UsageError);
  // The largest counts below the limit are still exact.
  s = preset("gpt2");
  s.layers = 1'000'000'000;
  const ParamCount c = count_params(s);
  EXPECT_EQ(c.blocks, 1'000'000'000 * c.block);
  EXPECT_EQ(c.total, c.token_embedding + c.positional + c.blocks + c.final_norm);
}
