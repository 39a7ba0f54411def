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
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen probe default gender", "lumen probe glove.vec plural --folds 10 -C 0.5",
                    "lumen probe table.vec pos.tsv --json    # pos.tsv: word<TAB>label lines"});
  return [a]() {
    if (a->table.path.empty()) throw UsageError("probe needs a TABLE and LABELS");
    if (a->json) Progress::set_enabled(false);
    const eval::LabelSet labels = eval::load_label_set(a->labels, a->analogies);
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
