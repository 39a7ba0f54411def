// Figure 3's numbers: layer 0 is the lookup plus the position (cosine from those rows alone; 1 under RoPE), the
// token given in any of its spellings, errors, and the picture.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "checkpoint_edit.hpp"
#include "gpt2_fixture.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/drift.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/model_tokenizer.hpp"

using namespace lumen;
using lumen::model::testing::fixture_dir;

namespace test_drift {
const auto& kContexts = model::testing::kBankContexts;

TEST(ModelDrift, LayerZeroIsTheLookupPlusPosition) {
  const model::testing::Gpt2Fixture f;
  const auto& m = f.m;
  const auto& tok = f.tok;
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

// Each layer's baseline is the anisotropy of every position's state in both contexts, recomputed here from the
// forward pass; the adjusted cosine sets the pair's cosine beside it.
TEST(ModelDrift, EachLayerHasItsBaseline) {
  const model::testing::Gpt2Fixture f;
  const auto& m = f.m;
  const model::Drift d = model::drift(m, *f.tok, "bank", kContexts, 3);
  const std::size_t C = m.shape().d, L = d.cosine.size();
  ASSERT_EQ(d.baseline.size(), L);
  ASSERT_EQ(d.adjusted.size(), L);
  model::ForwardOptions fo;
  fo.keep_layers = true;
  fo.no_logits = true;
  const auto ra = m.forward(d.occurrences[0].ids, fo), rb = m.forward(d.occurrences[1].ids, fo);
  const std::size_t Ta = d.occurrences[0].ids.size(), Tb = d.occurrences[1].ids.size();
  for (std::size_t l = 0; l < L; ++l) {
    double sum = 0;
    std::size_t n = 0;
    std::vector<const float*> states;
    for (std::size_t t = 0; t < Ta; ++t) states.push_back(ra.layers[l].data() + t * C);
    for (std::size_t t = 0; t < Tb; ++t) states.push_back(rb.layers[l].data() + t * C);
    for (std::size_t i = 0; i < states.size(); ++i)
      for (std::size_t j = i + 1; j < states.size(); ++j, ++n) {
        double ab = 0, aa = 0, bb = 0;
        for (std::size_t c = 0; c < C; ++c)
          ab += double(states[i][c]) * states[j][c], aa += double(states[i][c]) * states[i][c],
              bb += double(states[j][c]) * states[j][c];
        sum += ab / std::sqrt(aa * bb);
      }
    EXPECT_TRUE(d.baseline[l].all_pairs);
    EXPECT_EQ(d.baseline[l].rows, Ta + Tb);
    EXPECT_EQ(d.baseline[l].pairs, n);
    EXPECT_NEAR(d.baseline[l].mean_cosine, sum / static_cast<double>(n), 1e-6) << "layer " << l;
    const double b = d.baseline[l].mean_cosine;
    EXPECT_NEAR(d.adjusted[l], (d.cosine[l] - b) / (1 - b), 1e-12);
  }
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
  const model::testing::Gpt2Fixture f;
  const auto& m = f.m;
  const auto& tok = f.tok;
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

// Figure 3 as JSON: the schema `lumen drift --json` and the explorer's /api/drift share.
TEST(ModelDriftJson, EveryNumberOfTheDriftInItsPlace) {
  const model::testing::Gpt2Fixture f;
  const auto& m = f.m;
  const auto& tok = f.tok;
  const model::Drift d = model::drift(m, *tok, "bank", kContexts, 4);
  const nlohmann::json j = model::drift_json(d, *tok);
  EXPECT_EQ(j["token"], "\u2423bank");
  ASSERT_EQ(j["contexts"].size(), 2u);
  EXPECT_EQ(j["contexts"][1]["text"], kContexts[1]);
  EXPECT_EQ(j["contexts"][0]["position"], 2);
  EXPECT_EQ(j["contexts"][1]["position"], 1);
  EXPECT_EQ(j["contexts"][0]["id"], d.occurrences[0].token);
  EXPECT_EQ(j["contexts"][0]["ids"].size(), d.occurrences[0].ids.size());
  const std::size_t L = d.cosine.size();
  ASSERT_EQ(j["layers"].size(), L);
  for (std::size_t l = 0; l < L; ++l) {
    EXPECT_EQ(j["layers"][l]["layer"], l);
    EXPECT_DOUBLE_EQ(j["layers"][l]["cosine"].get<double>(), d.cosine[l]);
    EXPECT_DOUBLE_EQ(j["layers"][l]["baseline"]["mean_cosine"].get<double>(), d.baseline[l].mean_cosine);
    EXPECT_EQ(j["layers"][l]["baseline"]["pairs"], d.baseline[l].pairs);
    EXPECT_DOUBLE_EQ(j["layers"][l]["adjusted"].get<double>(), d.adjusted[l]);
    for (std::size_t o = 0; o < 2; ++o) {
      const auto& c = j["layers"][l]["contexts"][o];
      ASSERT_EQ(c["nearest"].size(), 4u);
      ASSERT_EQ(c["lens"].size(), 4u);
      EXPECT_EQ(c["nearest"][0]["id"], d.occurrences[o].nearest[l][0].id);
      EXPECT_EQ(c["nearest"][0]["token"], tok->label(d.occurrences[o].nearest[l][0].id));
      EXPECT_EQ(c["lens"][0]["display"], tok->label(d.occurrences[o].lens[l][0].id));
      EXPECT_DOUBLE_EQ(c["nearest"][0]["cosine"].get<double>(), d.occurrences[o].nearest[l][0].cosine);
      EXPECT_EQ(c["lens"][3]["id"], d.occurrences[o].lens[l][3].id);
      EXPECT_NEAR(c["lens"][3]["prob"].get<double>(), d.occurrences[o].lens[l][3].prob, 1e-12);
    }
  }
  EXPECT_TRUE(j["layer0"]["learned_positions"].get<bool>());
  EXPECT_TRUE(j["layer0"]["same_token"].get<bool>());
  EXPECT_DOUBLE_EQ(j["layer0"]["position_term_norm"].get<double>(), d.position_term_norm);
  ASSERT_EQ(j["pca_variance_ratio"].size(), 2u);
  // The PCA points, nested per context and layer, are Drift::pca_xy in its order (context 0's layers first).
  ASSERT_EQ(j["pca_xy"].size(), 2u);
  for (std::size_t o = 0; o < 2; ++o) {
    ASSERT_EQ(j["pca_xy"][o].size(), L);
    for (std::size_t l = 0; l < L; ++l) {
      EXPECT_FLOAT_EQ(j["pca_xy"][o][l][0].get<float>(), d.pca_xy[(o * L + l) * 2]);
      EXPECT_FLOAT_EQ(j["pca_xy"][o][l][1].get<float>(), d.pca_xy[(o * L + l) * 2 + 1]);
    }
  }
}

TEST(ModelDriftJson, SitesAreCheckedAsDriftChecksThem) {
  const model::testing::Gpt2Fixture f;
  const auto& m = f.m;
  const auto& tok = f.tok;
  const auto sites = model::drift_sites(m, *tok, "bank", kContexts);
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0].position, 2u);
  EXPECT_EQ(sites[1].position, 1u);
  EXPECT_THROW(model::drift_sites(m, *tok, "money", kContexts), InputError);
  EXPECT_THROW(model::drift_sites(m, *tok, "bank", {"the bank"}), UsageError);
  std::string longer = "the bank";
  for (int i = 0; i < 40; ++i) longer += " the";  // past the fixture's context of 32
  EXPECT_THROW(model::drift_sites(m, *tok, "bank", {"the bank", longer}), InputError);
}

}  // namespace test_drift
