// Figure 3's numbers: layer 0 is the lookup plus the position (cosine from those rows alone; 1 under RoPE), the
// token given in any of its spellings, errors, and the picture.
#include <gtest/gtest.h>

#include <cmath>

#include "checkpoint_edit.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/drift.hpp"
#include "lumen/model/model_tokenizer.hpp"

using namespace lumen;
using lumen::model::testing::fixture_dir;

namespace test_drift {
const std::vector<std::string> kContexts = {"the river bank was muddy", "the bank approved the loan"};

TEST(ModelDrift, LayerZeroIsTheLookupPlusPosition) {
  const auto m = model::load_checkpoint(fixture_dir("gpt2"));
  const auto tok = model::tokenizer_for(m, fixture_dir("gpt2"));
  const model::Drift d = model::drift(m, *tok, "bank", kContexts, 3);
  ASSERT_EQ(d.cosine.size(), 3u);
  ASSERT_EQ(d.occurrences.size(), 2u);
  const auto &a = d.occurrences[0], &b = d.occurrences[1];
  EXPECT_EQ(tok->label(a.token), "\u2423bank");
  EXPECT_EQ(a.token, b.token);
  EXPECT_EQ(a.position, 2u);
  EXPECT_EQ(b.position, 1u);
  // Layer 0 by hand: E[t] + P[p] in each context.
  const std::size_t C = m.shape().d;
  const auto& E = m.weights().wte;
  const auto& P = m.weights().wpe;
  double ab = 0, aa = 0, bb = 0, p2 = 0;
  for (std::size_t c = 0; c < C; ++c) {
    const double x = E[a.token * C + c] + P[a.position * C + c], y = E[b.token * C + c] + P[b.position * C + c];
    ab += x * y, aa += x * x, bb += y * y;
    p2 += (P[a.position * C + c] - P[b.position * C + c]) * (P[a.position * C + c] - P[b.position * C + c]);
  }
  EXPECT_NEAR(d.cosine[0], ab / std::sqrt(aa * bb), 1e-6);
  EXPECT_NEAR(d.position_term_norm, std::sqrt(p2), 1e-5);
  EXPECT_TRUE(d.learned_positions);
  ASSERT_EQ(a.nearest.size(), 3u);
  ASSERT_EQ(a.nearest[0].size(), 3u);
  ASSERT_EQ(a.lens[2].size(), 3u);
  // The logit lens at the last layer is the model's own next-token prediction at that position.
  model::ForwardOptions fo;
  const auto full = m.forward(a.ids, fo);
  const auto top = model::top_tokens(full.logits.data() + a.position * m.shape().V, m.shape().V, 3);
  EXPECT_EQ(a.lens[2][0].id, top[0].id);
  EXPECT_NEAR(a.lens[2][0].prob, top[0].prob, 1e-5);
  EXPECT_EQ(d.pca_xy.size(), 2u * 3u * 2u);
}

TEST(ModelDrift, RopeLayerZeroIsIdenticalAndSpellingsAgree) {
  const auto m = model::load_checkpoint(fixture_dir("llama-sharded"));
  const auto tok = model::tokenizer_for(m, fixture_dir("llama-sharded"));
  for (const char* spelling : {"bank", " bank", "\u2423bank", "\u0120bank"}) {
    const model::Drift d = model::drift(m, *tok, spelling, kContexts);
    EXPECT_NEAR(d.cosine[0], 1.0, 1e-6) << spelling;
    EXPECT_FALSE(d.learned_positions);
    EXPECT_LT(d.cosine[1], 1.0 - 1e-4);  // the blocks see the context
    EXPECT_EQ(tok->label(d.occurrences[0].token), "\u2423bank");
  }
}

TEST(ModelDrift, ErrorsAndPicture) {
  const auto m = model::load_checkpoint(fixture_dir("gpt2"));
  const auto tok = model::tokenizer_for(m, fixture_dir("gpt2"));
  EXPECT_THROW(model::drift(m, *tok, "money", kContexts), InputError);
  EXPECT_THROW(model::drift(m, *tok, "bank", {"the bank"}), UsageError);
  EXPECT_THROW(model::drift(m, *tok, "bank", {"the bank", "a bank", "one bank"}), UsageError);
  // A 100 kB context is quoted as an excerpt, not whole (102 kB of stderr).
  std::string huge;
  while (huge.size() < 100000) huge += "the river ";
  for (const auto& contexts :
       {std::vector<std::string>{huge, "the bank"}, std::vector<std::string>{"the bank", huge}}) {
    try {
      model::drift(m, *tok, "bank", contexts);
      ADD_FAILURE() << "no error for a context without the token";
    } catch (const InputError& e) {
      EXPECT_LT(std::string(e.what()).size(), 600u);
      EXPECT_NE(std::string(e.what()).find("... (100000 bytes)"), std::string::npos) << e.what();
    }
  }
  const model::Drift d = model::drift(m, *tok, "bank", kContexts);
  const std::string png = model::render_drift(d, *tok, project::PlotFormat::png);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  const std::string svg = model::render_drift(d, *tok, project::PlotFormat::svg);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
}

}  // namespace test_drift
