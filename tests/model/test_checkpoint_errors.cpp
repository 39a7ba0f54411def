// Bad checkpoints: each fails with an InputError naming the file and the tensor or field, never a crash and never a
// model that runs half-loaded.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "checkpoint_edit.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/text/tokenizer_files.hpp"

using namespace lumen;
using namespace lumen::model::testing;
using nlohmann::json;

namespace test_checkpoint_errors {

// The InputError's message (and that it is one); ADD_FAILURE if the load succeeds or throws something else.
std::string load_error(const std::string& dir) {
  try {
    model::load_checkpoint(dir);
  } catch (const ParseError& e) {
    return std::string("ParseError: ") + e.what();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "loaded " << dir;
  return {};
}

TEST(CheckpointErrors, TheFixtureLoads) {
  EditedCheckpoint c("gpt2", "ok");
  c.save();  // an unedited round trip through the helper
  EXPECT_NO_THROW(model::load_checkpoint(c.dir()));
}

TEST(CheckpointErrors, MissingTensor) {
  EditedCheckpoint c("gpt2", "missing");
  c.header.erase("h.1.mlp.c_fc.bias");
  c.save();
  const std::string e = load_error(c.dir());
  EXPECT_NE(e.find("missing tensor 'h.1.mlp.c_fc.bias'"), std::string::npos) << e;
  EXPECT_NE(e.find("model.safetensors"), std::string::npos) << e;
}

TEST(CheckpointErrors, ExtraTensor) {
  EditedCheckpoint c("gpt2", "extra");
  c.add_copy("h.1.ln_1.weight", "h.2.ln_1.weight");  // a third block the config does not have
  c.save();
  const std::string e = load_error(c.dir());
  EXPECT_NE(e.find("extra tensor 'h.2.ln_1.weight'"), std::string::npos) << e;
  EXPECT_NE(e.find("2 layers"), std::string::npos) << e;
}

TEST(CheckpointErrors, ShapeDisagreesWithConfig) {
  EditedCheckpoint c("gpt2", "shape");
  c.header["h.0.attn.c_attn.weight"]["shape"] = {96, 32};  // stored (out, in): not GPT-2's Conv1D layout
  c.save();
  const std::string e = load_error(c.dir());
  EXPECT_NE(e.find("tensor 'h.0.attn.c_attn.weight' has shape [96, 32]; config.json needs [32, 96]"), std::string::npos)
      << e;
}

TEST(CheckpointErrors, ConfigWidthDisagreesWithEveryTensor) {
  EditedCheckpoint c("gpt2", "width");
  c.config["n_embd"] = 64;
  c.save();
  const std::string e = load_error(c.dir());
  EXPECT_NE(e.find("tensor 'wte.weight' has shape [300, 32]; config.json needs [300, 64]"), std::string::npos) << e;
}

TEST(CheckpointErrors, NanAndInfWeights) {
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
    EditedCheckpoint c("gpt2", "nan");
    c.poke("h.0.ln_2.weight", 3, bad);
    c.save();
    const std::string e = load_error(c.dir());
    EXPECT_NE(e.find("tensor 'h.0.ln_2.weight' holds"), std::string::npos) << e;
    EXPECT_NE(e.find("element 3"), std::string::npos) << e;
  }
}

TEST(CheckpointErrors, NanAndInfInHalfWeightsKeptInPlace) {
  // A BF16 linear weight stays a half view of the file: its check reads the 16-bit values themselves.
  for (const auto& [bits, what] : {std::pair<std::uint16_t, const char*>{0x7fc0, "NaN"}, {0xff80, "an infinity"}}) {
    EditedCheckpoint c("gpt2-untied-bf16", "halfnan");
    c.poke16("transformer.h.0.mlp.c_fc.weight", 5, bits);
    c.save();
    const std::string e = load_error(c.dir());
    EXPECT_NE(e.find(std::string("tensor 'transformer.h.0.mlp.c_fc.weight' holds ") + what + " at element 5"),
              std::string::npos)
        << e;
  }
}

TEST(CheckpointErrors, UnsupportedDtype) {
  EditedCheckpoint c("gpt2", "dtype");
  c.header["ln_f.bias"]["dtype"] = "I32";
  c.save();
  const std::string e = load_error(c.dir());
  EXPECT_NE(e.find("tensor 'ln_f.bias' is I32; expected F32, F16 or BF16"), std::string::npos) << e;
}

TEST(CheckpointErrors, ConfigFieldsOutOfRange) {
  const std::pair<const char*, json> cases[] = {{"n_head", 5},
                                                {"n_head", 0},
                                                {"vocab_size", -3},
                                                {"n_layer", "two"},
                                                {"layer_norm_epsilon", -1.0},
                                                {"model_type", "bert"},
                                                {"n_embd", 1e30},
                                                {"activation_function", "relu"}};
  for (const auto& [field, value] : cases) {
    EditedCheckpoint c("gpt2", "config");
    c.config[field] = value;
    c.save();
    const std::string e = load_error(c.dir());
    EXPECT_NE(e.find("config.json: "), std::string::npos) << field << ": " << e;
    EXPECT_NE(e.find(field), std::string::npos) << field << ": " << e;
  }
  EditedCheckpoint c("llama-sharded", "kv");
  c.config["num_key_value_heads"] = 3;
  std::ofstream(c.dir() + "/config.json") << c.config.dump();
  const std::string e = load_error(c.dir());
  EXPECT_NE(e.find("num_key_value_heads: 3 does not divide the 4 attention heads"), std::string::npos) << e;
}

TEST(CheckpointErrors, NoWeightsOrBadIndex) {
  EditedCheckpoint c("gpt2", "nofile");
  std::filesystem::remove(c.weights());
  EXPECT_NE(load_error(c.dir()).find("no model.safetensors"), std::string::npos);
  std::ofstream(c.dir() + "/model.safetensors.index.json") << R"({"weight_map": {"wte.weight": "../secret"}})";
  EXPECT_NE(load_error(c.dir()).find("expected a file name in the same directory"), std::string::npos);
  std::ofstream(c.dir() + "/model.safetensors.index.json") << R"({"weight_map": {"wte.weight": "gone.safetensors"}})";
  EXPECT_NE(load_error(c.dir()).find("gone.safetensors"), std::string::npos);
  std::ofstream(c.dir() + "/model.safetensors.index.json") << "{not json";
  EXPECT_NE(load_error(c.dir()).find("ParseError"), std::string::npos);
}

TEST(CheckpointErrors, TruncatedShard) {
  EditedCheckpoint c("gpt2", "trunc");
  c.buffer.resize(c.buffer.size() / 2);
  c.save();
  EXPECT_NE(load_error(c.dir()).find("ParseError"), std::string::npos);
}

TEST(CheckpointErrors, TokenizerSizeMustBeV) {
  EditedCheckpoint c("gpt2", "tok");
  const auto m = model::load_checkpoint(c.dir());
  EXPECT_NO_THROW(model::tokenizer_for(m, c.dir()));
  json t = json::parse(slurp(c.dir() + "/tokenizer.json"));
  // Drop the last merge and the token it makes: 299 ids for a model of V 300.
  std::string last;
  for (auto& [k, v] : t["model"]["vocab"].items())
    if (v.get<int>() == 299) last = k;
  t["model"]["vocab"].erase(last);
  t["model"]["merges"].erase(t["model"]["merges"].size() - 1);
  std::ofstream(c.dir() + "/tokenizer.json") << t.dump();
  try {
    model::tokenizer_for(m, c.dir());
    ADD_FAILURE() << "no error for a 299-id tokenizer";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the tokenizer has 299 ids; the model's vocabulary (config.json vocab_size) "
                                         "is 300"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckpointErrors, TextLongerThanContextAndBadIds) {
  const auto m = model::load_checkpoint(fixture_dir("gpt2"));
  EXPECT_THROW(m.forward(std::vector<std::int32_t>(33, 1)), InputError);
  EXPECT_THROW(m.forward({}), InputError);
  EXPECT_THROW(m.forward({1, 300}), IdError);
  EXPECT_THROW(m.forward({-1}), IdError);
}

// The calculator and the loader count the same parameters for every fixture.
TEST(CheckpointErrors, CalculatorAgreesWithLoader) {
  for (const char* name : {"gpt2", "gpt2-untied-bf16", "llama-sharded", "llama-tied-f16"}) {
    model::LoadReport r;
    const auto m = model::load_checkpoint(fixture_dir(name), &r);
    EXPECT_EQ(nn::count_params(m.shape()).total, r.parameters) << name;
  }
}

// The fuzz target's seeds (config.json, NUL, model.safetensors) load through the in-memory loader and run.
TEST(CheckpointErrors, FuzzSeedsLoad) {
  for (const char* seed : {"gpt2.bin", "llama.bin"}) {
    const std::string bytes = slurp(std::string(LUMEN_SOURCE_DIR) + "/fuzz/corpus/fuzz_model_checkpoint/" + seed);
    const auto nul = bytes.find('\0');
    ASSERT_NE(nul, std::string::npos);
    const auto m = model::load_checkpoint_from_memory(std::string_view(bytes).substr(0, nul),
                                                      std::string_view(bytes).substr(nul + 1));
    EXPECT_EQ(m.forward({0, 1}).logits.size(), 2 * m.shape().V) << seed;
    // Cut short: a clean error, not a crash.
    EXPECT_THROW(model::load_checkpoint_from_memory(std::string_view(bytes).substr(0, nul),
                                                    std::string_view(bytes).substr(nul + 1, 100)),
                 InputError);
  }
}

}  // namespace test_checkpoint_errors
