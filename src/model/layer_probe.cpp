#include "lumen/model/layer_probe.hpp"

#include <chrono>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/utf8.hpp"
#include "lumen/model/model_run.hpp"
#include "lumen/project/trajectory_plot.hpp"

namespace lumen::model {

std::string context_before(const std::string& context) {
  const std::size_t at = context.find("{}");
  if (at == std::string::npos || context.find("{}", at + 2) != std::string::npos)
    throw InputError(
        fmt::format("the context \"{}\" must hold {{}} exactly once, where the word goes", utf8_excerpt(context)));
  return context.substr(0, at);
}

namespace {

std::size_t tokens_past(std::size_t all, std::size_t prefix) { return all > prefix ? all - prefix : 1; }

}  // namespace

std::size_t word_tokens(const text::Tokenizer& tok, const std::string& before, const std::string& word) {
  const std::size_t prefix = before.empty() ? 0 : tok.encode(before).size();
  return tokens_past(tok.encode(before + word).size(), prefix);
}

LayerVectors layer_vectors(const Transformer& model, const text::Tokenizer& tok, const std::vector<std::string>& words,
                           const std::string& context, std::size_t threads, const ProgressFn& progress) {
  const std::string before = context_before(context);
  const nn::ModelShape& s = model.shape();
  const std::size_t C = s.d, L = s.layers + 1, n = words.size();
  LayerVectors out;
  out.context = context;
  out.layers.resize(L);
  for (auto& t : out.layers) {
    t.E = Matrix(n, C);
    t.source = fmt::format("{} layer", context);
    t.format = "residual stream";
  }
  const std::size_t prefix = before.empty() ? 0 : tok.encode(before).size();
  ForwardOptions fo;
  fo.keep_layers = true;
  fo.no_logits = true;
  fo.threads = threads;
  for (std::size_t w = 0; w < n; ++w) {
    if (words[w].empty()) throw InputError("an empty word cannot be read through the model");
    if (out.layers[0].vocab.find(words[w]))  // row w must be words[w]'s
      throw InputError(fmt::format("\"{}\" is given twice; each word is read once", utf8_excerpt(words[w])));
    // Causal attention: the state at the word's last token sees only the text up to it.
    const auto enc = tok.encode(before + words[w]);
    const std::vector<std::int32_t> ids(enc.begin(), enc.end());
    if (ids.empty() || ids.size() > s.context)
      throw InputError(fmt::format("\"{}\" is {} tokens; the model's context is {}", utf8_excerpt(before + words[w]),
                                   ids.size(), s.context));
    const std::size_t took = tokens_past(ids.size(), prefix);
    out.tokens.push_back(took);
    if (took > 1) ++out.multi_token;
    const ForwardResult r = model.forward(ids, fo);
    const std::size_t p = ids.size() - 1;
    for (std::size_t l = 0; l < L; ++l) {
      std::copy(r.layers[l].begin() + static_cast<std::ptrdiff_t>(p * C),
                r.layers[l].begin() + static_cast<std::ptrdiff_t>((p + 1) * C), out.layers[l].E.row_mut(w).begin());
      out.layers[l].vocab.add(words[w]);
    }
    if (progress) progress("reading words", w + 1, n);
  }
  return out;
}

ProgressFn layer_progress(const ProgressFn& progress, std::size_t layer) {
  if (!progress) return {};
  return [progress, layer](const std::string&, std::uint64_t done, std::uint64_t total) {
    progress(fmt::format("layer {}", layer), done, total);
  };
}

LayerProbe probe_layers(const Transformer& model, const text::Tokenizer& tok, const eval::LabelSet& labels,
                        const std::string& context, const eval::ProbeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> words;
  for (const auto& w : labels.words) words.push_back(w.word);
  LayerProbe out;
  out.vectors = layer_vectors(model, tok, words, context, options.logistic.threads, options.progress);
  const std::size_t L = out.vectors.layers.size();
  for (std::size_t l = 0; l < L; ++l) {
    eval::ProbeOptions o = options;
    o.progress = layer_progress(options.progress, l);
    out.layers.push_back(eval::run_probe(out.vectors.layers[l], labels, o));
    if (out.layers[l].selectivity > out.layers[out.best].selectivity) out.best = l;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

LayerProbeRun run_layer_probe(const LayerProbeRequest& r, const eval::LabelSet& labels) {
  return measure_model(
      r.checkpoint, r.tokenizer, r.output,
      [&](const OpenedModel& o) {
        return LayerProbeRun{r.checkpoint, probe_layers(o.model, *o.tokenizer, labels, r.context, r.options)};
      },
      [&](const LayerProbeRun& run, project::PlotFormat f) { return render_layer_probe(run.probe, labels.name, f); });
}

std::string render_layer_probe(const LayerProbe& p, const std::string& labels, project::PlotFormat format) {
  project::TrajectoryPlot t;
  t.title = fmt::format("a linear probe for {} on each layer's states ({} words)", labels, p.layers.at(0).words.size());
  t.curve_title =
      fmt::format("read {}", p.vectors.context == kAloneContext ? std::string("alone")
                                                                : fmt::format("in \"{}\"", p.vectors.context));
  t.curve_x = "layer (0: E row + position)";
  t.curve_y = "accuracy";
  t.curve_name = "probe";
  t.reference_name = "control task (labels shuffled)";
  for (const auto& r : p.layers) {
    t.curve.push_back(r.accuracy);
    t.reference.push_back(r.control_accuracy);
  }
  const auto& b = p.layers[p.best];
  t.caption.push_back(fmt::format("best selectivity at layer {}: accuracy {:.3f}, control {:.3f}, selectivity {:+.3f}",
                                  p.best, b.accuracy, b.control_accuracy, b.selectivity));
  t.caption.push_back(fmt::format("layer 0 (the lookup): accuracy {:.3f}, selectivity {:+.3f}; majority class {:.3f}",
                                  p.layers[0].accuracy, p.layers[0].selectivity, p.layers[0].majority));
  return project::render_trajectories(t, format);
}

}  // namespace lumen::model
