// Figure 3 as JSON (the schema `lumen drift --json` and the explorer's /api/drift share), a model's E as a labelled
// table, and a model described as JSON.
#include <gtest/gtest.h>

#include <memory>

#include "checkpoint_edit.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/drift.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/embedding_table.hpp"
#include "lumen/model/model_json.hpp"
#include "lumen/model/model_tokenizer.hpp"

using namespace lumen;
using lumen::model::testing::fixture_dir;

namespace test_drift_json {
const std::vector<std::string> kContexts = {"the river bank was muddy", "the bank approved the loan"};

TEST(ModelDriftJson, EveryNumberOfTheDriftInItsPlace) {
  const auto m = model::load_checkpoint(fixture_dir("gpt2"));
  const auto tok = model::tokenizer_for(m, fixture_dir("gpt2"));
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
    for (std::size_t o = 0; o < 2; ++o) {
      const auto& c = j["layers"][l]["contexts"][o];
      ASSERT_EQ(c["nearest"].size(), 4u);
      ASSERT_EQ(c["lens"].size(), 4u);
      EXPECT_EQ(c["nearest"][0]["id"], d.occurrences[o].nearest[l][0].id);
      EXPECT_EQ(c["nearest"][0]["token"], tok->label(d.occurrences[o].nearest[l][0].id));
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
  const auto m = model::load_checkpoint(fixture_dir("gpt2"));
  const auto tok = model::tokenizer_for(m, fixture_dir("gpt2"));
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

TEST(ModelEmbeddingTable, TheModelsERowsLabelledByItsTokenizer) {
  auto m = std::make_shared<const model::Transformer>(model::load_checkpoint(fixture_dir("gpt2")));
  const auto tok = model::tokenizer_for(*m, fixture_dir("gpt2"));
  const Table t = model::embedding_table(m, *tok, fixture_dir("gpt2"));
  ASSERT_EQ(t.V(), m->shape().V);
  ASSERT_EQ(t.d(), m->shape().d);
  const auto bank = tok->find("\u2423bank");
  ASSERT_TRUE(bank.has_value());
  for (const char* spelling : {"\u2423bank", " bank", "\u0120bank"}) {  // the label and the spellings a user types
    const auto id = t.vocab.find(spelling);
    ASSERT_TRUE(id.has_value()) << spelling;
    EXPECT_EQ(*id, *bank) << spelling;
  }
  for (std::size_t c = 0; c < t.d(); ++c)
    EXPECT_EQ(t.E.at(static_cast<std::size_t>(*bank), c),
              m->weights().wte[static_cast<std::size_t>(*bank) * t.d() + c]);
  EXPECT_EQ(t.source, fixture_dir("gpt2"));
}

TEST(ModelJson, DescribesTheShapeAndTheHead) {
  const auto tied = model::load_checkpoint(fixture_dir("gpt2"));
  const nlohmann::json j = model::model_json(tied, "here");
  EXPECT_EQ(j["source"], "here");
  EXPECT_EQ(j["model_type"], "gpt2");
  EXPECT_EQ(j["V"], 300);
  EXPECT_EQ(j["d"], 32);
  EXPECT_EQ(j["layers"], 2);
  EXPECT_EQ(j["context"], 32);
  EXPECT_EQ(j["positional"], "learned");
  EXPECT_TRUE(j["tied"].get<bool>());
  EXPECT_GT(j["parameters"].get<std::uint64_t>(), 300u * 32u);
  const auto untied = model::load_checkpoint(fixture_dir("gpt2-untied-bf16"));
  EXPECT_FALSE(model::model_json(untied, "x")["tied"].get<bool>());
}

}  // namespace test_drift_json
