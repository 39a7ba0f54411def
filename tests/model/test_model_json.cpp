// A model's E as a labelled table, and a model described as JSON.
#include <gtest/gtest.h>

#include <memory>

#include "checkpoint_edit.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/embedding_table.hpp"
#include "lumen/model/model_json.hpp"
#include "lumen/model/model_tokenizer.hpp"

using namespace lumen;
using lumen::model::testing::fixture_dir;

namespace test_model_json {

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

}  // namespace test_model_json
