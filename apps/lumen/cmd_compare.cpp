// lumen compare A B: two tables over their shared words (neighbour overlap@k, Procrustes, CKA, the words that
// moved most). lumen compare LM --heads: an untied model's input table E against its output head W.
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/compare.hpp"
#include "lumen/eval/compare_json.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_compare {
namespace {

struct CompareArgs {
  TableArgs table;
  std::string other;
  bool heads = false;
  std::string head;
  eval::CompareOptions o;
  bool json = false;
};

std::string words(const std::vector<eval::NamedNeighbour>& nb) {
  std::string s;
  for (const auto& x : nb) s += (s.empty() ? "" : " ") + x.word;
  return s;
}

void print_text(const eval::Comparison& c, const Table& a, const Table& b) {
  fmt::print("A: {} ({} x {})\nB: {} ({} x {})\n", a.source, c.V_a, c.d_a, b.source, c.V_b, c.d_b);
  fmt::print("shared words: {}{}\n", c.shared,
             c.n < c.shared - c.non_finite ? fmt::format(" (compared: the first {})", c.n) : "");
  if (c.non_finite > 0)
    fmt::print("note: {} shared word{} left out, their row in A or B holding a NaN or an infinity: {}{}\n",
               c.non_finite, c.non_finite == 1 ? "" : "s", fmt::join(c.non_finite_words, ", "),
               c.non_finite > c.non_finite_words.size() ? ", …" : "");
  if (c.sampled)
    fmt::print(
        "neighbour overlap@{} over a random {} of the {} words (seed {}; --sample 0 for every word): "
        "mean {:.4f} ± {:.4f} (standard error), median {:.4f}\n",
        c.k, c.queries, c.n, c.seed, c.mean_overlap, c.overlap_stderr, c.median_overlap);
  else fmt::print("neighbour overlap@{}: mean {:.4f}, median {:.4f}\n", c.k, c.mean_overlap, c.median_overlap);
  for (std::size_t j = 0; j < c.histogram.size(); ++j) {
    const double share = static_cast<double>(c.histogram[j]) / static_cast<double>(c.queries);
    fmt::print("  {:>3}/{}: {:5.1f}% {}\n", j, c.k, 100 * share,
               std::string(static_cast<std::size_t>(std::lround(share * 40)), '#'));
  }
  if (c.procrustes)
    fmt::print("Procrustes: residual |AR - B| = {:.6g} ({:.4f} of |B| = {:.6g}){}\n", c.procrustes->residual,
               c.procrustes->relative_residual, c.procrustes->norm_b,
               c.procrustes->reflection ? ", R includes a reflection" : "");
  else fmt::print("Procrustes: skipped: {}\n", c.procrustes_skipped);
  fmt::print("linear CKA: {:.6f}\n", c.cka);
  if (!c.moved.empty()) fmt::print("words whose neighbourhoods changed most:\n");
  for (const auto& m : c.moved)
    fmt::print("  {} (overlap {:.2f})\n    A: {}\n    B: {}\n", m.word, m.overlap, words(m.in_a), words(m.in_b));
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<CompareArgs>();
  add_table_options(cmd, a->table);
  cmd.add_option("other", a->other, "The second table (any format lumen reads)");
  cmd.add_flag("--heads", a->heads,
               "Compare TABLE (an untied model's input table E) with its output head W, row by row: "
               "TABLE.out (as lumen train lm --no-tie writes it) or, for a safetensors checkpoint, its "
               "lm_head.weight (embed_out.weight, output.weight)");
  cmd.add_option("--head", a->head, "With --heads: the output head's file (default: TABLE.out)");
  cmd.add_option("-k", a->o.k, "Neighbours per word for the overlap")->capture_default_str()->check(at_least(1));
  cmd.add_option("--top", a->o.top, "Compare only the first N shared words (in TABLE's order; 0: all)")
      ->capture_default_str();
  cmd.add_option(
      "--sample", a->o.sample,
      fmt::format("Compare the neighbour lists of a random N of the words (0: every word; default: every "
                  "word up to {}, else {} of them, which estimates the mean overlap with a standard "
                  "error). Neighbours are still searched among every word; Procrustes and CKA use every word",
                  eval::kAutoSampleAbove, eval::kAutoSample));
  cmd.add_option("--seed", a->o.seed, "The sample's seed")->capture_default_str();
  cmd.add_option("--moved", a->o.moved, "How many of the most changed words to list (from the compared words)")
      ->capture_default_str();
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen compare seed1.vec seed2.vec -k 10", "lumen compare lm.vec --heads --json",
                    "lumen compare model.safetensors --heads   # embed_tokens against lm_head",
                    "lumen compare glove.100d.txt glove.300d.txt --top 20000",
                    "lumen compare glove.6B.300d.txt w2v.vec --sample 0   # every word's lists, exact (slow)"});
  return [a]() {
    if (a->table.path.empty()) throw UsageError("compare needs two tables (or one and --heads)");
    if (a->heads && !a->other.empty()) throw UsageError("--heads compares one model's two tables: give one TABLE");
    if (!a->heads && !a->head.empty()) throw UsageError("--head goes with --heads");
    if (!a->heads && a->other.empty()) throw UsageError("compare needs a second table (or --heads)");
    if (a->json) Progress::set_enabled(false);
    const Table ta = load_table(a->table);
    TableArgs other = a->table;
    other.path = a->other;
    const Table tb = a->heads ? load_output_head(a->table, a->head) : load_table(other);
    StageBar bar({.unit = "words"});
    a->o.progress = std::ref(bar);
    const eval::Comparison c = eval::compare_tables(ta, tb, a->o);
    bar.finish();
    if (a->json) print_json(eval::comparison_json(c, ta.source, tb.source));
    else print_text(c, ta, tb);
    return kOk;
  };
}

const Register reg("compare", "Two tables compared: neighbour overlap, Procrustes, CKA, the words that moved", setup,
                   62);

}  // namespace
}  // namespace lumen::cli::cmd_compare
