// lumen probe TABLE LABELS: can a linear classifier read LABELS off the table's rows? Cross-validated accuracy
// against the majority baseline and a control task with shuffled labels (selectivity).
#include <fmt/format.h>
#include <functional>

#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/analogy_set.hpp"
#include "lumen/eval/probe.hpp"
#include "lumen/eval/probe_json.hpp"
#include "lumen/model/layer_probe.hpp"
#include "lumen/model/layer_probe_json.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

#ifndef LUMEN_DATA_DIR
#define LUMEN_DATA_DIR ""
#endif

namespace lumen::cli::cmd_probe {
namespace {

struct ProbeArgs {
  TableArgs table;
  std::string labels;
  std::string analogies = std::string(LUMEN_DATA_DIR) + "/questions-words.txt";
  eval::ProbeOptions o;
  bool json = false;
  bool layers = false;
  std::string context = model::kAloneContext, out;
};

std::string sets_help() {
  std::string s = "word<TAB>label lines, or a set made from the analogy benchmark's sections:";
  for (const auto& b : eval::builtin_label_sets()) s += fmt::format(" {} ({}),", b.name, b.description);
  s.back() = '.';
  return s;
}

void print_text(const eval::ProbeResult& r, const eval::LabelSet& labels, const Table& t) {
  std::string classes;
  for (std::size_t k = 0; k < r.classes.size(); ++k)
    classes += fmt::format("{}{} ({})", k ? ", " : "", r.classes[k],
                           std::count(r.labels.begin(), r.labels.end(), static_cast<int>(k)));
  fmt::print("probe: {} on {} (d = {}): {} words, classes {}\n", labels.name, t.source, t.d(), r.words.size(), classes);
  if (!r.missing.empty()) {
    std::string some;
    for (std::size_t i = 0; i < std::min<std::size_t>(r.missing.size(), 8); ++i) some += " " + r.missing[i];
    fmt::print("skipped {} words not in the table:{}{}\n", r.missing.size(), some, r.missing.size() > 8 ? " ..." : "");
  }
  fmt::print("logistic regression (multinomial, L2, C = {:g}), {}-fold cross-validation split by word\n", r.C, r.folds);
  fmt::print("  accuracy     {:.4f} ± {:.4f}\n", r.accuracy, r.accuracy_std);
  fmt::print("  majority     {:.4f}\n", r.majority);
  fmt::print("  control task {:.4f} ± {:.4f} (labels shuffled across words)\n", r.control_accuracy, r.control_std);
  fmt::print("  selectivity  {:+.4f} (accuracy − control: what the probe reads rather than memorises)\n",
             r.selectivity);
  if (!r.probe.converged || !r.control.converged)
    fmt::print("note: some fits stopped before converging ({} iterations); raise --max-iter\n",
               std::max(r.probe.iterations, r.control.iterations));
}

void print_layers(const model::LayerProbe& p, const eval::LabelSet& labels, const std::string& source) {
  const eval::ProbeResult& first = p.layers.at(0);
  fmt::print(
      "probe: {} on {}, layer by layer: {} words read {}{}\n", labels.name, source, first.words.size(),
      p.vectors.context == model::kAloneContext ? std::string("alone") : fmt::format("in \"{}\"", p.vectors.context),
      p.vectors.multi_token
          ? fmt::format(" ({} of more than one token: their last token's state is read)", p.vectors.multi_token)
          : "");
  fmt::print(
      "logistic regression (multinomial, L2, C = {:g}), {}-fold cross-validation split by word; majority {:.4f}\n",
      first.C, first.folds, first.majority);
  fmt::print("\n{:>5}  {:>17}  {:>17}  {:>11}\n", "layer", "accuracy", "control", "selectivity");
  for (std::size_t l = 0; l < p.layers.size(); ++l) {
    const auto& r = p.layers[l];
    fmt::print("{:>5}  {:>17}  {:>17}  {:>+11.4f}{}\n", l, fmt::format("{:.4f} ± {:.4f}", r.accuracy, r.accuracy_std),
               fmt::format("{:.4f} ± {:.4f}", r.control_accuracy, r.control_std), r.selectivity,
               l == p.best ? "  <- best" : "");
  }
  fmt::print("\nlayer 0 is E's row plus the position's (the lookup); layer i the residual stream after block i.\n");
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<ProbeArgs>();
  add_table_options(cmd, a->table);
  cmd.add_option("labels", a->labels, sets_help())->required();
  cmd.add_option("--folds", a->o.folds, "Cross-validation folds (split by word)")
      ->capture_default_str()
      ->check(CLI::Range(2, 1000));
  cmd.add_option("-C", a->o.logistic.C, "Inverse L2 strength, as scikit-learn's C")
      ->capture_default_str()
      ->check(greater_than(0));
  cmd.add_option("--max-iter", a->o.logistic.max_iter, "L-BFGS iterations per fit")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd.add_option("--tol", a->o.logistic.tol,
                 "Stop a fit when no gradient entry of the mean loss exceeds this (scikit-learn's tol)")
      ->capture_default_str()
      ->check(greater_than(0));
  cmd.add_option("--seed", a->o.seed, "Seed of the folds and of the control task's shuffle")->capture_default_str();
  cmd.add_option("--analogies", a->analogies, "The analogy benchmark the built-in sets are made from")
      ->capture_default_str();
  cmd.add_flag("--layers", a->layers,
               "TABLE is a model (Hugging Face directory or GGUF): probe each layer's residual state of the words");
  CLI::Option* context =
      cmd.add_option("--context", a->context,
                     "With --layers: the text each word is read in, {} where the word goes (default \" {}\": alone, as "
                     "inside a sentence)");
  CLI::Option* output =
      cmd.add_option("-o,--output", a->out, "With --layers: write accuracy by layer as a .png or .svg");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen probe default gender", "lumen probe glove.vec plural --folds 10 -C 0.5",
                    "lumen probe table.vec pos.tsv --json    # pos.tsv: word<TAB>label lines",
                    "lumen probe build/default/gpt gender --layers -o layers.png",
                    "lumen probe build/default/gpt plural --layers --context \"I saw the {}\""});
  return [a, context, output]() {
    if (a->table.path.empty()) throw UsageError("probe needs a TABLE and LABELS");
    if (a->json) Progress::set_enabled(false);
    if (!a->layers)
      for (const CLI::Option* o : {context, output})
        if (o->count()) throw UsageError(fmt::format("{} goes with --layers", o->get_name()));
    const eval::LabelSet labels = eval::load_label_set(a->labels, a->analogies);
    if (a->layers) {
      StageBar bar({.unit_of = [](const std::string& stage) { return stage == "reading words" ? "words" : "fits"; }});
      a->o.progress = std::ref(bar);
      const model::LayerProbeRun run =
          model::run_layer_probe({.checkpoint = a->table.path,
                                  .tokenizer = a->table.tokenizer == "none" ? "" : a->table.tokenizer,
                                  .context = a->context,
                                  .output = a->out,
                                  .options = a->o},
                                 labels);
      bar.finish();
      if (a->json) print_json(model::layer_probe_json(run.probe, labels, run.source));
      else print_layers(run.probe, labels, run.source);
      if (!a->out.empty() && !a->json) fmt::print("wrote {}\n", a->out);
      return kOk;
    }
    const Table t = load_table(a->table);
    StageBar bar({.unit = "fits", .label = "probe and control"});
    a->o.progress = std::ref(bar);
    const eval::ProbeResult r = eval::run_probe(t, labels, a->o);
    bar.finish();
    if (a->json) print_json(eval::probe_json(r, labels, t.source));
    else print_text(r, labels, t);
    return kOk;
  };
}

const Register reg("probe", "A linear probe: cross-validated accuracy against a baseline and a control task", setup,
                   61);

}  // namespace
}  // namespace lumen::cli::cmd_probe
