#pragma once
// Analogies by layer: the chapter says an LLM's input table has weaker analogy structure than word2vec's, and that
// the cleaner directions live deeper in the residual stream. This reads every one-token word of an analogy
// benchmark through the model (layer_vectors) and scores 3CosAdd (or 3CosMul) on each layer's states with eval's
// gensim rules. Every layer answers from the same candidates: the benchmark's one-token words.
#include <cstddef>
#include <string>
#include <vector>

#include "lumen/eval/analogies.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/model/layer_probe.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/project/plot.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

struct LayerAnalogies {
  LayerVectors vectors;                     // the benchmark's one-token words, in first-use order
  std::size_t words = 0;                    // distinct words in the benchmark
  std::vector<std::string> multi_token;     // words of more than one token: left out, their questions skipped
  std::vector<eval::AnalogyResult> layers;  // (N+1)
  std::size_t best = 0;                     // the layer of highest total accuracy (the first, on a tie)
  double seconds = 0;
};

// options.restrict is ignored (every one-token word is a candidate). options.progress gets ("reading words", done,
// words), then ("layer i", rows done, rows) per layer. InputError when no word is one token, or (from
// evaluate_analogies) no question has four of them.
LayerAnalogies analogy_layers(const Transformer& model, const text::Tokenizer& tokenizer, const eval::AnalogySet& set,
                              const std::string& context, const eval::AnalogyOptions& options);

// `lumen eval analogies MODEL FILE --layers`: the checkpoint opened (open_model), every layer scored, and the picture
// written atomically where asked (.png or .svg, checked first).
struct LayerAnalogiesRequest {
  std::string checkpoint;
  std::string tokenizer;                // empty: the one beside the checkpoint
  std::string context = kAloneContext;  // the template a word is read in
  std::string output;                   // the picture (empty: none)
  eval::AnalogyOptions options;
};
struct LayerAnalogiesRun {
  std::string source;  // the checkpoint as named
  LayerAnalogies analogies;
};
LayerAnalogiesRun run_layer_analogies(const LayerAnalogiesRequest& request, const eval::AnalogySet& set);

// The picture: accuracy by layer, with the share of questions whose nearest word is an input (dashed).
std::string render_layer_analogies(const LayerAnalogies& a, const std::string& file, project::PlotFormat format);

}  // namespace lumen::model
