#include "lumen/model/depth_claim.hpp"

#include "lumen/core/error.hpp"
#include "lumen/model/layer_analogies.hpp"
#include "lumen/model/layer_probe.hpp"

namespace lumen::model {

namespace {

// The deeper layer (1..N) of highest score(l), the first on a tie.
template <class Score>
std::size_t best_deeper(std::size_t layers, Score score) {
  std::size_t best = 1;
  for (std::size_t l = 2; l < layers; ++l)
    if (score(l) > score(best)) best = l;
  return best;
}

}  // namespace

DepthScores depth_scores(const Transformer& model, const text::Tokenizer& tok, const eval::LabelSet& labels,
                         const eval::AnalogySet* analogies, std::size_t threads) {
  DepthScores d;
  d.layers = model.shape().layers + 1;
  eval::ProbeOptions po;
  po.logistic.threads = threads;
  // A small model's context may be shorter than a long word's tokens: such words are left out, not fatal.
  eval::LabelSet fit = labels;
  const std::string before = context_before(kAloneContext);
  std::erase_if(fit.words, [&](const eval::LabelledWord& w) {
    return tok.encode(before + w.word).size() > model.shape().context;
  });
  const LayerProbe p = probe_layers(model, tok, fit, kAloneContext, po);
  const auto& first = p.layers.at(0);
  d.probe_words = first.words.size();
  d.folds = first.folds;
  d.probe_layer = best_deeper(d.layers, [&](std::size_t l) { return p.layers[l].selectivity; });
  d.probe_row0 = first.selectivity;
  d.probe_row0_std = first.accuracy_std;
  d.probe_deeper = p.layers[d.probe_layer].selectivity;
  d.probe_deeper_std = p.layers[d.probe_layer].accuracy_std;
  if (analogies == nullptr) return d;
  eval::AnalogyOptions ao;
  ao.threads = threads;
  try {
    const LayerAnalogies a = analogy_layers(model, tok, *analogies, kAloneContext, ao);
    const auto accuracy = [&](std::size_t l) { return a.layers[l].total.accuracy(); };
    d.analogies = true;
    d.analogy_questions = a.layers[0].total.answered;
    d.analogy_layer = best_deeper(d.layers, accuracy);
    d.analogy_row0 = accuracy(0);
    d.analogy_deeper = accuracy(d.analogy_layer);
  } catch (const InputError&) {
    // No question of four one-token words: the analogy half is not measured (analogies stays false).
  }
  return d;
}

}  // namespace lumen::model
