// Logits and per-layer residual streams (keep_layers) of lumen's forward pass against
// tests/data/model/make_fixtures.py's PyTorch reference (its own GPT-2 and Llama written from the published
// architectures, float64) on tiny random checkpoints in Hugging Face layout: GPT-2 tied f32 (no prefix, attn.bias
// buffers), GPT-2 untied bf16 ("transformer." prefix, lm_head), Llama untied f32 in two shards, Llama tied f16 with
// Llama 3.1 rope_scaling.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lumen/io/open.hpp"
#include "lumen/model/checkpoint.hpp"

using namespace lumen;

namespace test_parity {

std::string fixture(const std::string& name) { return std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/" + name; }

// Max |lumen - reference| over every row of a fixture case's expected output, relative to that output's largest
// magnitude, worst over the cases. what names the output in expected.json: "logits" (T, V), or "layers", the
// residual stream at each of the N+1 layers, ((N+1) T, C) layer-major, against forward's keep_layers states.
double worst_relative_error(const std::string& name, std::size_t threads, const std::string& what = "logits") {
  const std::string dir = fixture(name);
  const model::Transformer m = model::load_checkpoint(dir);
  std::ifstream in(dir + "/expected.json");
  const auto expected = nlohmann::json::parse(in);
  const bool layers = what == "layers";
  double worst = 0;
  for (const auto& c : expected["cases"]) {
    const auto ids = c["ids"].get<std::vector<std::int32_t>>();
    model::ForwardOptions o;
    o.threads = threads;
    o.keep_layers = layers;
    const model::ForwardResult r = m.forward(ids, o);
    std::vector<float> got = r.logits;  // (T, V), or the N+1 layers one after another
    if (layers) {
      EXPECT_EQ(r.layers.size(), m.shape().layers + 1) << name;
      got.clear();
      for (const auto& l : r.layers) {
        EXPECT_EQ(l.size(), ids.size() * m.shape().d) << name;
        got.insert(got.end(), l.begin(), l.end());
      }
    }
    const Table want = io::open_table(dir + "/" + c[what].get<std::string>());
    EXPECT_EQ(want.V(), (layers ? m.shape().layers + 1 : 1) * ids.size()) << name;
    EXPECT_EQ(want.d(), layers ? m.shape().d : m.shape().V) << name;
    if (want.V() * want.d() != got.size()) {
      ADD_FAILURE() << name << ": " << got.size() << " values from lumen, " << want.V() << " x " << want.d()
                    << " in the reference";
      return 1;
    }
    std::vector<float> row(want.d());
    double scale = 0, err = 0;
    for (std::size_t t = 0; t < want.V(); ++t) {
      want.E.row_f32(t, row.data());
      for (std::size_t v = 0; v < row.size(); ++v) {
        scale = std::max(scale, std::abs(double(row[v])));
        err = std::max(err, std::abs(double(row[v]) - got[t * row.size() + v]));
      }
    }
    EXPECT_GT(scale, 0.5) << name << ": " << what << " too small to test anything";
    worst = std::max(worst, err / scale);
    std::printf("%s %s T=%zu: max |error| %.3g, scale %.3g, relative %.3g\n", name.c_str(), what.c_str(), ids.size(),
                err, scale, err / scale);
  }
  return worst;
}

TEST(ModelParity, Gpt2TiedF32) { EXPECT_LT(worst_relative_error("gpt2", 1), 1e-4); }
TEST(ModelParity, Gpt2UntiedBf16Prefixed) { EXPECT_LT(worst_relative_error("gpt2-untied-bf16", 2), 1e-4); }
TEST(ModelParity, LlamaShardedF32) { EXPECT_LT(worst_relative_error("llama-sharded", 2), 1e-4); }
TEST(ModelParity, LlamaTiedF16RopeScaling) { EXPECT_LT(worst_relative_error("llama-tied-f16", 1), 1e-4); }

// The per-layer vectors (keep_layers): the reference forward's residual stream at every layer, 1e-4 relative.
TEST(ModelParity, LayersGpt2TiedF32) { EXPECT_LT(worst_relative_error("gpt2", 1, "layers"), 1e-4); }
TEST(ModelParity, LayersGpt2UntiedBf16Prefixed) {
  EXPECT_LT(worst_relative_error("gpt2-untied-bf16", 2, "layers"), 1e-4);
}
TEST(ModelParity, LayersLlamaShardedF32) { EXPECT_LT(worst_relative_error("llama-sharded", 2, "layers"), 1e-4); }
TEST(ModelParity, LayersLlamaTiedF16RopeScaling) {
  EXPECT_LT(worst_relative_error("llama-tied-f16", 1, "layers"), 1e-4);
}

TEST(ModelParity, ReportsTheHeadAndDtype) {
  model::LoadReport r;
  const auto m = model::load_checkpoint(fixture("gpt2-untied-bf16"), &r);
  EXPECT_FALSE(m.tied());
  EXPECT_EQ(r.dtype, "BF16");
  EXPECT_EQ(r.head, "untied (lm_head.weight)");
  const auto l = model::load_checkpoint(fixture("llama-sharded") + "/config.json", &r);
  EXPECT_EQ(r.files.size(), 2u);
  EXPECT_FALSE(l.tied());
  const auto t = model::load_checkpoint(fixture("llama-tied-f16"), &r);
  EXPECT_TRUE(t.tied());
  EXPECT_EQ(r.head, "tied (config.json tie_word_embeddings)");
}

// The last-only forward gives the last row of the full one; keep_layers gives N+1 states.
TEST(ModelParity, LastOnlyAndLayers) {
  const auto m = model::load_checkpoint(fixture("gpt2"));
  const std::vector<std::int32_t> ids = {1, 2, 3, 4, 5};
  const auto full = m.forward(ids);
  model::ForwardOptions o;
  o.last_only = true;
  o.keep_layers = true;
  const auto last = m.forward(ids, o);
  ASSERT_EQ(last.logits.size(), m.shape().V);
  for (std::size_t v = 0; v < m.shape().V; ++v)  // (sgemm blocks one row and five differently)
    EXPECT_NEAR(last.logits[v], full.logits[4 * m.shape().V + v], 1e-5);
  EXPECT_EQ(last.layers.size(), m.shape().layers + 1);
}

}  // namespace test_parity
