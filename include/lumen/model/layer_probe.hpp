#pragma once
// Probes by layer: the chapter says the cleanest concept directions of a modern model live in the residual stream
// deeper in the network, not in row 0. This reads each labelled word through the model and fits eval's linear
// probe (with its control task and selectivity) on every layer's state: layer 0 is E's row plus the position's,
// layer i the stream after block i.
#include <cstddef>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/eval/probe.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/project/plot.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// The text a word is read in: `{}` marks the word. The default " {}" reads it alone, spelled as inside a sentence
// (GPT-2's "␣king"). The model is causal, so only what comes before the word matters; text after `{}` is accepted
// and changes nothing.
inline constexpr const char* kAloneContext = " {}";

struct LayerVectors {
  std::string context;              // the template used
  std::vector<std::size_t> tokens;  // (words) how many tokens each word took; its last token's state is read
  std::size_t multi_token = 0;      // words of more than one token
  std::vector<Table> layers;        // (N+1): vocab = the words, E (words, C) their states at that layer
};

// The text of `context` before its `{}`. InputError for a template without exactly one `{}`.
std::string context_before(const std::string& context);

// How many tokens `word` takes when read after `before` (context_before's text): those of the whole text past the
// ones of `before` alone, and at least 1. The word's last token is the one whose state is read.
std::size_t word_tokens(const text::Tokenizer& tokenizer, const std::string& before, const std::string& word);

// The states of `words` (each once, in order) at every layer. InputError for a template without exactly one `{}`, a
// repeated or empty word, or a text longer than the model's context. progress: ("reading words", done, words).
LayerVectors layer_vectors(const Transformer& model, const text::Tokenizer& tokenizer,
                           const std::vector<std::string>& words, const std::string& context = kAloneContext,
                           std::size_t threads = 0, const ProgressFn& progress = {});

// A per-layer measurement's progress: `progress` (none: none) with each call's stage named "layer i".
ProgressFn layer_progress(const ProgressFn& progress, std::size_t layer);

struct LayerProbe {
  LayerVectors vectors;
  std::vector<eval::ProbeResult> layers;  // (N+1): the probe on each layer's states, the same folds throughout
  std::size_t best = 0;                   // the layer of highest selectivity (the first, on a tie)
  double seconds = 0;
};

// The probe on every layer. options.progress also gets ("layer i", done, total) per layer's fits.
LayerProbe probe_layers(const Transformer& model, const text::Tokenizer& tokenizer, const eval::LabelSet& labels,
                        const std::string& context, const eval::ProbeOptions& options);

// `lumen probe MODEL LABELS --layers` and Python's lumen.probe(..., layers=True): the checkpoint opened (open_model),
// the probe on every layer, and the picture written atomically where asked (.png or .svg, checked first).
struct LayerProbeRequest {
  std::string checkpoint;
  std::string tokenizer;                // empty: the one beside the checkpoint
  std::string context = kAloneContext;  // the template a word is read in
  std::string output;                   // the picture (empty: none)
  eval::ProbeOptions options;
};
struct LayerProbeRun {
  std::string source;  // the checkpoint as named
  LayerProbe probe;
};
LayerProbeRun run_layer_probe(const LayerProbeRequest& request, const eval::LabelSet& labels);

// The picture: accuracy by layer beside the control task's (dashed); the gap is the selectivity.
std::string render_layer_probe(const LayerProbe& p, const std::string& labels, project::PlotFormat format);

}  // namespace lumen::model
