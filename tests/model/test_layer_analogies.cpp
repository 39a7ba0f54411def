// Analogies by layer: only the benchmark's one-token words are read (the rest are left out and their questions
// skipped), every layer is scored by eval's gensim rules on those words' states, and the JSON carries each layer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpt2_fixture.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/analogies.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/model/layer_analogies.hpp"
#include "lumen/model/layer_analogies_json.hpp"

using namespace lumen;

namespace test_layer_analogies {

// Read with the template "{}", a single byte is one token of the fixture's byte-level BPE; "xylophone" is many.
const char* kSet =
    ": letters\n"
    "a b c d\n"
    "b c d e\n"
    "c d e f\n"
    "e f g h\n"
    "a xylophone c d\n"
    ": more\n"
    "f g h a\n"
    "g h a b\n";

TEST(LayerAnalogies, EveryLayerIsScoredOnItsOneTokenWords) {
  const model::testing::Gpt2Fixture f;
  const eval::AnalogySet set = eval::parse_analogy_set(kSet, "planted.txt");
  eval::AnalogyOptions o;
  o.restrict = 3;  // ignored: every one-token word is a candidate
  const model::LayerAnalogies a = model::analogy_layers(f.m, *f.tok, set, "{}", o);
  EXPECT_EQ(a.words, 9u);
  ASSERT_EQ(a.multi_token, std::vector<std::string>{"xylophone"});
  ASSERT_EQ(a.vectors.layers.at(0).V(), 8u);
  EXPECT_EQ(a.vectors.layers[0].vocab.token(0), "a");  // first-use order
  for (const std::size_t t : a.vectors.tokens) EXPECT_EQ(t, 1u);
  EXPECT_GT(model::word_tokens(*f.tok, "", "xylophone"), 1u);
  ASSERT_EQ(a.layers.size(), f.m.shape().layers + 1);
  eval::AnalogyOptions all = o;
  all.restrict = 0;
  std::size_t best = 0;
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    const eval::AnalogyResult want = eval::evaluate_analogies(a.vectors.layers[l], set, all);
    EXPECT_EQ(a.layers[l].total.answered, 6u) << "layer " << l;  // the xylophone question is skipped
    EXPECT_EQ(a.layers[l].total.skipped, 1u);
    EXPECT_EQ(a.layers[l].total.correct, want.total.correct);
    EXPECT_EQ(a.layers[l].top_is_input, want.top_is_input);
    EXPECT_EQ(a.layers[l].rows, 8u);
    if (a.layers[l].total.accuracy() > a.layers[best].total.accuracy()) best = l;
  }
  EXPECT_EQ(a.best, best);
  const nlohmann::json j = model::layer_analogies_json(a, set, o, "gpt2");
  EXPECT_EQ(j["layers"].size(), a.layers.size());
  EXPECT_EQ(j["one_token"], 8);
  EXPECT_EQ(j["multi_token"][0], "xylophone");
  EXPECT_EQ(j["layers"][1]["layer"], 1);
  EXPECT_EQ(j["layers"][1]["answered"], 6);
  EXPECT_FALSE(j["layers"][0].contains("table"));
  EXPECT_EQ(model::render_layer_analogies(a, set.path, project::PlotFormat::png).substr(1, 3), "PNG");
}

TEST(LayerAnalogies, NoOneTokenWordIsAnError) {
  const model::testing::Gpt2Fixture f;
  const eval::AnalogySet set = eval::parse_analogy_set(": long\nxylophone quartermaster hippopotamus zeppelin\n", "x");
  EXPECT_THROW(model::analogy_layers(f.m, *f.tok, set, "{}", {}), InputError);
  EXPECT_THROW(model::analogy_layers(f.m, *f.tok, set, "no place", {}), InputError);
}

}  // namespace test_layer_analogies
