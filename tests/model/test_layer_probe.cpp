// Probes by layer: each word's state at every layer is the forward pass's at its last token (alone or in a
// context; text after the word changes nothing in a causal model), the probe on each layer is eval's probe on those
// states, and the JSON and picture carry every layer.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpt2_fixture.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/model/layer_probe.hpp"
#include "lumen/model/layer_probe_json.hpp"

using namespace lumen;

namespace test_layer_probe {

const std::vector<std::string> kWords = {"river", "bank", "money", "loan", "water", "stone", "tree", "house",
                                         "road",  "rain", "cat",   "dog",  "king",  "queen", "man",  "woman"};

eval::LabelSet labels() {
  std::string tsv;
  for (std::size_t i = 0; i < kWords.size(); ++i) tsv += kWords[i] + (i % 2 ? "\todd\n" : "\teven\n");
  return eval::parse_label_set(tsv, "planted.tsv");
}

TEST(LayerProbe, StatesAreTheForwardPassAtTheWordsLastToken) {
  const model::testing::Gpt2Fixture f;
  const std::size_t C = f.m.shape().d, L = f.m.shape().layers + 1;
  for (const std::string& context : {std::string(model::kAloneContext), std::string("the {}")}) {
    const model::LayerVectors v = model::layer_vectors(f.m, *f.tok, kWords, context);
    ASSERT_EQ(v.layers.size(), L);
    for (std::size_t w = 0; w < kWords.size(); ++w) {
      const std::string text = context.substr(0, context.find("{}")) + kWords[w];
      const auto enc = f.tok->encode(text);
      model::ForwardOptions fo;
      fo.keep_layers = true;
      const auto r = f.m.forward(std::vector<std::int32_t>(enc.begin(), enc.end()), fo);
      const std::size_t p = enc.size() - 1;
      for (std::size_t l = 0; l < L; ++l) {
        EXPECT_EQ(v.layers[l].vocab.token(w), kWords[w]);
        for (std::size_t c = 0; c < C; ++c)
          ASSERT_EQ(v.layers[l].E.at(w, c), r.layers[l][p * C + c]) << context << " " << kWords[w] << " layer " << l;
      }
    }
  }
  // Causal: what follows the word changes nothing.
  const auto a = model::layer_vectors(f.m, *f.tok, kWords, "the {}");
  const auto b = model::layer_vectors(f.m, *f.tok, kWords, "the {} was here");
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t c = 0; c < C; ++c) ASSERT_EQ(a.layers[l].E.at(3, c), b.layers[l].E.at(3, c));
}

TEST(LayerProbe, EveryLayerIsProbedOnItsOwnStates) {
  const model::testing::Gpt2Fixture f;
  const eval::LabelSet set = labels();
  eval::ProbeOptions o;
  o.folds = 4;
  const model::LayerProbe p = model::probe_layers(f.m, *f.tok, set, model::kAloneContext, o);
  ASSERT_EQ(p.layers.size(), f.m.shape().layers + 1);
  std::size_t best = 0;
  for (std::size_t l = 0; l < p.layers.size(); ++l) {
    const eval::ProbeResult alone = eval::run_probe(p.vectors.layers[l], set, o);
    EXPECT_DOUBLE_EQ(p.layers[l].accuracy, alone.accuracy) << "layer " << l;
    EXPECT_DOUBLE_EQ(p.layers[l].control_accuracy, alone.control_accuracy);
    EXPECT_EQ(p.layers[l].fold, p.layers[0].fold);  // the same folds at every layer
    if (p.layers[l].selectivity > p.layers[best].selectivity) best = l;
  }
  EXPECT_EQ(p.best, best);
  const nlohmann::json j = model::layer_probe_json(p, set, "gpt2");
  EXPECT_EQ(j["layers"].size(), p.layers.size());
  EXPECT_EQ(j["best_layer"], p.best);
  EXPECT_TRUE(j["alone"].get<bool>());
  EXPECT_EQ(j["n"], kWords.size());
  EXPECT_EQ(j["words"].size(), kWords.size());
  EXPECT_FALSE(j["layers"][0].contains("words"));
  EXPECT_DOUBLE_EQ(j["layers"][1]["selectivity"].get<double>(), p.layers[1].selectivity);
  const std::string png = model::render_layer_probe(p, set.name, project::PlotFormat::png);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST(LayerProbe, AContextMustHoldOnePlaceForTheWord) {
  const model::testing::Gpt2Fixture f;
  EXPECT_THROW(model::layer_vectors(f.m, *f.tok, kWords, "no place"), InputError);
  EXPECT_THROW(model::layer_vectors(f.m, *f.tok, kWords, "{} and {}"), InputError);
  EXPECT_THROW(model::layer_vectors(f.m, *f.tok, {""}, "{}"), InputError);
  // Row w is word w's: a repeat is refused rather than leaving the rows out of line with the vocabulary.
  EXPECT_THROW(model::layer_vectors(f.m, *f.tok, {"cat", "dog", "cat"}, "{}"), InputError);
}

}  // namespace test_layer_probe
