#include "lumen/model/layer_analogies.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <unordered_set>

#include "lumen/core/error.hpp"
#include "lumen/model/model_run.hpp"
#include "lumen/project/trajectory_plot.hpp"

namespace lumen::model {

namespace {

double share(std::size_t part, std::size_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

LayerAnalogies analogy_layers(const Transformer& model, const text::Tokenizer& tok, const eval::AnalogySet& set,
                              const std::string& context, const eval::AnalogyOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const std::string before = context_before(context);
  LayerAnalogies out;
  std::vector<std::string> single;
  std::unordered_set<std::string> seen;
  for (const auto& s : set.sections)
    for (const auto& q : s.questions)
      for (const std::string* w : {&q.a, &q.b, &q.c, &q.d}) {
        if (!seen.insert(*w).second) continue;
        ++out.words;
        if (word_tokens(tok, before, *w) == 1) single.push_back(*w);
        else out.multi_token.push_back(*w);
      }
  if (single.empty())
    throw InputError(fmt::format("{}: none of its {} words is one token of this model{}", set.path, out.words,
                                 before.empty() ? "" : fmt::format(" after \"{}\"", before)));
  out.vectors = layer_vectors(model, tok, single, context, options.threads, options.progress);
  for (std::size_t l = 0; l < out.vectors.layers.size(); ++l) {
    eval::AnalogyOptions o = options;
    o.restrict = 0;
    o.progress = layer_progress(options.progress, l);
    out.layers.push_back(eval::evaluate_analogies(out.vectors.layers[l], set, o));
    if (out.layers[l].total.accuracy() > out.layers[out.best].total.accuracy()) out.best = l;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

LayerAnalogiesRun run_layer_analogies(const LayerAnalogiesRequest& r, const eval::AnalogySet& set) {
  return measure_model(
      r.checkpoint, r.tokenizer, r.output,
      [&](const OpenedModel& o) {
        return LayerAnalogiesRun{r.checkpoint, analogy_layers(o.model, *o.tokenizer, set, r.context, r.options)};
      },
      [&](const LayerAnalogiesRun& run, project::PlotFormat f) {
        return render_layer_analogies(run.analogies, set.path, f);
      });
}

std::string render_layer_analogies(const LayerAnalogies& a, const std::string& file, project::PlotFormat format) {
  const auto& first = a.layers.at(0);
  project::TrajectoryPlot t;
  t.title =
      fmt::format("analogies ({}) on each layer's states: {} questions of {} one-token words",
                  std::filesystem::path(file).filename().string(), first.total.answered, a.vectors.layers.at(0).V());
  t.curve_title =
      fmt::format("read {}", a.vectors.context == kAloneContext ? std::string("alone")
                                                                : fmt::format("in \"{}\"", a.vectors.context));
  t.curve_x = "layer (0: E row + position)";
  t.curve_y = "accuracy";
  t.curve_name = "accuracy, inputs excluded";
  t.reference_name = "nearest word is an input";
  for (const auto& r : a.layers) {
    t.curve.push_back(r.total.answered ? r.total.accuracy() : 0.0);
    t.reference.push_back(share(r.top_is_input, r.total.answered));
  }
  const auto& b = a.layers[a.best];
  t.caption.push_back(fmt::format("best layer {}: {} of {} ({:.1f}%)", a.best, b.total.correct, b.total.answered,
                                  100.0 * share(b.total.correct, b.total.answered)));
  t.caption.push_back(fmt::format("layer 0 (the lookup): {} of {} ({:.1f}%); {} words of more than one token left out",
                                  first.total.correct, first.total.answered,
                                  100.0 * share(first.total.correct, first.total.answered), a.multi_token.size()));
  return project::render_trajectories(t, format);
}

}  // namespace lumen::model
