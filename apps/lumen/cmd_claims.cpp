// lumen claims: the chapter's claims about learned tables, each printed with the figure measured on the default
// corpus (Brown) and table. Parsing and printing only; the experiments are the library's (lumen/train/claims.hpp,
// and lumen/model/gpt_claims.hpp for the tying claim on small GPTs).
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <set>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/gpt_claims.hpp"
#include "lumen/model/gpt_claims_json.hpp"
#include "lumen/model/model_claims.hpp"
#include "lumen/model/model_claims_json.hpp"
#include "lumen/train/claims.hpp"
#include "lumen/train/result_json.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

#ifndef LUMEN_DATA_DIR
#define LUMEN_DATA_DIR ""
#endif

namespace lumen::cli::cmd_claims {
namespace {

struct Args {
  TableArgs table;
  train::ClaimsOptions o;
  model::GptClaimsOptions gpt;
  bool skip_gpt = false, json = false;
  std::string model;  // --model: the claims about that checkpoint only
};

// The GPT options' flags: --gpt- and the library's name in kebab case.
std::string gpt_flag(std::string_view library_name) {
  static const std::set<std::string, std::less<>> kFlagged = {
      "seeds", "steps", "layers", "d_model", "heads", "context", "batch", "max_words", "eval_batches", "rare_fraction"};
  if (!kFlagged.contains(library_name)) return std::string(library_name);
  return "--gpt-" + option_flag(library_name).substr(2);
}

std::string signed3(double x) { return std::isfinite(x) ? fmt::format("{:+.3f}", x) : std::string("-"); }
std::string pct(double x) { return std::isfinite(x) ? fmt::format("{:.1f}%", 100.0 * x) : std::string("-"); }

// "mean +- sd over n <over>": how a judged figure reads.
std::string figure_text(const model::ClaimFigure& f, bool percent = false) {
  if (!std::isfinite(f.spread.mean)) return fmt::format("- over {} {}", f.spread.n, f.over);
  if (percent)
    return fmt::format("{:+.1f} points +- {:.1f} points over {} {}", 100.0 * f.spread.mean, 100.0 * f.spread.sd,
                       f.spread.n, f.over);
  return fmt::format("{:+.3f} +- {:.3f} over {} {}", f.spread.mean, f.spread.sd, f.spread.n, f.over);
}

// The verdict in words; `yes` and `no` say what the two outcomes beyond the spread mean.
std::string verdict_text(const std::string& v, const std::string& yes, const std::string& no) {
  if (v == "within_spread") return "no difference beyond the spread";
  if (v == "single") return "one value, so no spread to judge it against";
  if (v == "not_measured") return "not measured";
  return v == "deeper_higher" || v == "input_closer" ? yes : no;
}

void print_depth_rows(const std::vector<std::pair<std::string, const model::DepthScores*>>& rows) {
  for (const auto& [name, d] : rows) {
    fmt::print("     {:<14} probe {} -> {} (layer {})", name, signed3(d->probe_row0), signed3(d->probe_deeper),
               d->probe_layer);
    if (d->analogies)
      fmt::print("   analogies {} -> {} (layer {}, {} questions)", pct(d->analogy_row0), pct(d->analogy_deeper),
                 d->analogy_layer, d->analogy_questions);
    fmt::print("\n");
  }
}

void print_depth_verdicts(const model::ClaimFigure& probe, const model::ClaimFigure& analogy) {
  const std::string yes = "a deeper layer is higher than row 0 beyond the spread",
                    no = "row 0 is higher than every deeper layer beyond the spread";
  fmt::print("   measured: probe selectivity, best deeper layer minus row 0: {}: {}.\n", figure_text(probe),
             verdict_text(probe.verdict, yes, no));
  if (analogy.verdict == "not_measured")
    fmt::print("   analogies: not measured (no question of four one-token words)\n");
  else
    fmt::print("   measured: analogy accuracy, best deeper layer minus row 0: {}: {}.\n", figure_text(analogy, true),
               verdict_text(analogy.verdict, yes, no));
}

void print_pairs(const std::vector<model::PairCosine>& pairs) {
  fmt::print("     {:<18} {:>8} {:>8}\n", "cosine", "input E", "head");
  for (const auto& p : pairs) fmt::print("     {:<18} {:>+8.3f} {:>+8.3f}\n", p.a + " ~ " + p.b, p.input, p.head);
}

void print_pair_verdict(const model::ClaimFigure& gap) {
  fmt::print("   measured: input minus head cosine, mean over the pairs: {}: {}.\n", figure_text(gap),
             verdict_text(gap.verdict, "E puts the pairs closer than the head does",
                          "the head puts the pairs closer than E does"));
}

void print_model(const model::ModelClaims& c) {
  fmt::print("The chapter's claims about a model, measured on {} ({} blocks, d {}, V {}, {})\n", c.source, c.layers,
             c.d, c.V, c.tied ? "tied" : "untied");
  fmt::print(
      "\n1. \"The cleanest concept directions live in the residual stream deeper in the network, not in row 0.\"\n");
  fmt::print("   the {} probe's selectivity ({} words, {} folds) and 3CosAdd accuracy, row 0 -> best deeper layer:\n",
             c.labels, c.depth.probe_words, c.depth.folds);
  print_depth_rows({{"this model", &c.depth}});
  print_depth_verdicts(c.probe_gain, c.analogy_gain);
  fmt::print("\n2. \"'a' and 'an': interchangeable as inputs, never interchangeable as predictions.\"\n");
  if (c.tied) {
    fmt::print("   not measured: the model is tied, so its input table and output head are one matrix.\n");
    return;
  }
  if (c.pairs.empty()) {
    fmt::print("   not measured: none of the function-word pairs is two single tokens of this model.\n");
    return;
  }
  print_pairs(c.pairs);
  print_pair_verdict(c.pair_gap);
}

void print_gpt(const model::GptClaimsResult& r) {
  const auto& o = r.train;
  const double pt = r.tied.perplexity.mean, pu = r.untied.perplexity.mean;
  const std::uint64_t saved = r.untied.params.total - r.tied.params.total;
  fmt::print("\n4. The tying claim again, on a transformer.\n");
  fmt::print(
      "   lumen train gpt on {} ({} training tokens, {} tokenizer, V {}): {} layers, d_model {}, {} heads, context {}, "
      "{} steps of {} windows, AdamW, {} seed(s):\n",
      r.corpus, r.train_tokens, o.tokenizer, r.V, o.layers, o.d_model, o.heads, o.context, o.steps, o.batch,
      r.seeds.size());
  fmt::print("     {:<7} {:>10}   {:<30} {}\n", "", "parameters", "held-out perplexity per seed", "mean +- sd");
  for (const auto* m : {&r.tied, &r.untied}) {
    std::string per;
    for (double p : m->heldout_perplexity) per += fmt::format("{:.2f} ", p);
    fmt::print("     {:<7} {:>10}   {:<30} {:.2f} +- {:.2f}\n", m == &r.tied ? "tied" : "untied", m->params.total, per,
               m->perplexity.mean, m->perplexity.sd);
  }
  const double gap = std::abs(pu - pt) / std::max(pu, pt) * 100.0;
  fmt::print("   measured: the tied model's perplexity is the lower in {} of {} seeds; ", r.tied_lower_seeds,
             r.seeds.size());
  switch (r.verdict) {
    case model::TyingVerdict::tied_lower:
      fmt::print("tying lowered it beyond the seed spread (by {:.1f}%, with {} fewer parameters).\n", gap, saved);
      break;
    case model::TyingVerdict::untied_lower:
      fmt::print("untied is lower beyond the seed spread (by {:.1f}%), with {} more parameters.\n", gap, saved);
      break;
    case model::TyingVerdict::within_spread:
      fmt::print("no difference beyond the seed spread ({} lower by {:.1f}% on average); tying saved {} parameters.\n",
                 pt < pu ? "tied" : "untied", gap, saved);
      break;
    case model::TyingVerdict::single_seed:
      fmt::print("one seed, so no spread to judge the {:.1f}% difference against.\n", gap);
      break;
    case model::TyingVerdict::not_measured: fmt::print("not measured.\n"); break;
  }

  fmt::print(
      "\n5. \"Tying acts as a regulariser: every row gets gradient as input and as target, so rare tokens learn "
      "faster.\"\n");
  fmt::print(
      "   held-out loss on rare targets: the bottom {:.0f}% by count of the {} tokens seen in training ({} tokens, "
      "each at "
      "most {} times), {} of {} held-out targets:\n",
      100.0 * r.rare_fraction, r.seen_tokens, r.rare_tokens, r.rare_max_count, r.rare_targets, r.heldout_positions);
  for (const auto* m : {&r.tied, &r.untied}) {
    std::string per;
    for (double p : m->rare_loss) per += fmt::format("{:.3f} ", p);
    fmt::print("     {:<7} {:<30} {:.3f} +- {:.3f}\n", m == &r.tied ? "tied" : "untied", per, m->rare.mean, m->rare.sd);
  }
  switch (r.rare_verdict) {
    case model::TyingVerdict::tied_lower:
      fmt::print("   measured: the tied model's rare-target loss is lower beyond the seed spread.\n");
      break;
    case model::TyingVerdict::untied_lower:
      fmt::print("   measured: the untied model's rare-target loss is lower beyond the seed spread.\n");
      break;
    case model::TyingVerdict::within_spread: fmt::print("   measured: no difference beyond the seed spread.\n"); break;
    case model::TyingVerdict::single_seed: fmt::print("   measured: one seed, so no spread to judge against.\n"); break;
    case model::TyingVerdict::not_measured:
      fmt::print("   not measured: no held-out target is rare (raise --gpt-eval-batches or --gpt-rare-fraction).\n");
      break;
  }

  fmt::print("\n6. \"'a' and 'an': interchangeable as inputs, never interchangeable as predictions.\"\n");
  if (r.pairs.empty() || r.pairs[0].empty()) {
    fmt::print("   not measured: none of the function-word pairs is two tokens of the corpus.\n");
  } else {
    fmt::print(
        "   the untied model's input table E against its output head, pairs that occur in the corpus (seed {}):\n",
        r.seeds.at(0));
    print_pairs(r.pairs[0]);
    print_pair_verdict(r.pair_gap);
  }

  if (r.depth) {
    fmt::print(
        "\n7. \"The cleanest concept directions live in the residual stream deeper in the network, not in row 0.\"\n");
    const auto& d0 = r.tied.depth.at(0);
    fmt::print("   the {} probe's selectivity ({} words, {} folds) and 3CosAdd accuracy, row 0 -> best deeper layer:\n",
               r.labels, d0.probe_words, d0.folds);
    std::vector<std::pair<std::string, const model::DepthScores*>> rows;
    for (std::size_t k = 0; k < r.seeds.size(); ++k) {
      rows.emplace_back(fmt::format("seed {} tied", r.seeds[k]), &r.tied.depth.at(k));
      rows.emplace_back(fmt::format("seed {} untied", r.seeds[k]), &r.untied.depth.at(k));
    }
    print_depth_rows(rows);
    print_depth_verdicts(r.probe_gain, r.analogy_gain);
  }
  fmt::print("   (spread: sample standard deviation over the seeds or models; {:.0f} s in all)\n", r.seconds);
}

void print_text(const train::ClaimsResult& r) {
  fmt::print("The chapter's claims, measured (table {}, {} x {})\n\n", r.table, r.V, r.d);
  if (r.tying) {
    const auto& ty = *r.tying;
    const double pt = ty.tied.heldout_perplexity, pu = ty.untied.heldout_perplexity;
    fmt::print("1. \"Tying the output head to E tends to help small models.\"\n");
    fmt::print(
        "   lumen train lm on {} ({} training tokens, context {}, d {}, H {}, V {}, {} epoch(s), adam, seed {}):\n",
        ty.corpus, ty.train_tokens, ty.context, ty.dim, ty.hidden, ty.tied.V, ty.epochs, ty.seed);
    fmt::print("     tied    held-out perplexity {:8.2f}\n     untied  held-out perplexity {:8.2f}\n", pt, pu);
    fmt::print("   measured: tying {} held-out perplexity by {:.1f}% here (with {} fewer parameters).\n\n",
               pt < pu ? "lowered" : "raised", std::abs(pu - pt) / pu * 100.0, ty.tied.V * ty.dim);
  }
  fmt::print("2. \"Frequent tokens often get longer vectors.\"\n");
  fmt::print("   Spearman rank correlation between a word's corpus count and its vector length: {:+.3f} ({} rows)\n\n",
             r.spearman, r.rows);
  fmt::print("3. \"Similarity of use becomes similarity of geometry.\"\n");
  fmt::print("   {:<22} {:>10} {:>10}\n", "cosine", "at init", "trained");
  for (const auto& p : r.pairs) fmt::print("   {:<22} {:>+10.3f} {:>+10.3f}\n", p.a + " ~ " + p.b, p.init, p.trained);
  if (r.pairs.empty()) fmt::print("   (none of the probe words are in this table)\n");
  fmt::print("   (init: uniform [-1/d, 1/d) rows from seed {}, as training started)\n", r.seed);
}

int run_model(const Args& a) {
  const model::ModelClaims c =
      model::run_model_claims({.checkpoint = a.model,
                               .tokenizer = a.table.tokenizer == "none" ? "" : a.table.tokenizer,
                               .labels = a.gpt.labels,
                               .analogies = a.gpt.analogies,
                               .threads = a.gpt.train.threads});
  if (a.json) print_json(model::model_claims_json(c));
  else print_model(c);
  return kOk;
}

int run(Args& a) {
  if (a.json) Progress::set_enabled(false);
  if (!a.model.empty()) return run_model(a);
  if (a.table.path.empty()) a.table.path = require_default_table();
  const Table t = load_table(a.table);
  // One bar per stage (a model of a seed is a stage), for the table's claims and the GPT's alike.
  std::optional<Progress> bar;
  std::string stage;
  const auto show = [&](const train::ClaimsProgress& p) {
    const std::string label =
        p.seeds > 0 ? fmt::format("{} ({}/{})", p.stage, p.seed_index + 1, p.seeds) : std::string(p.stage);
    if (!bar || stage != label) {
      bar.reset();
      stage = label;
      bar.emplace(stage, p.total, std::string(p.unit));
    }
    bar->update(p.done, p.training() ? fmt::format("loss {:.3f}", p.loss) : "");
  };
  a.o.progress = show;
  // Its errors name options ({corpus}): main spells them as this command's flags.
  std::optional<train::ClaimsResult> r = train::run_claims(t, a.table.path, a.o);
  if (bar) bar->finish();
  bar.reset();
  std::optional<model::GptClaimsResult> g;
  if (!a.skip_gpt) {
    a.gpt.corpus = train::claims_corpus(a.table.path, a.o.corpus);
    try {
      g = model::run_gpt_claims(a.gpt, show);
    } catch (const OptionError& e) {
      throw UsageError(e.text_for(gpt_flag));  // the GPT's options are --gpt-* here
    }
    if (bar) bar->finish();
  }
  if (a.json) {
    auto j = train::claims_result_json(*r);
    if (g) j["gpt_tying"] = model::gpt_claims_json(*g);
    print_json(j);
  } else {
    print_text(*r);
    if (g) print_gpt(*g);
  }
  return kOk;
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<Args>();
  auto& o = a->o;
  add_table_options(cmd, a->table);
  cmd.add_option("--corpus", o.corpus, "Corpus for the tied/untied comparison (default: brown.txt beside the table)");
  cmd.add_option("--vocab-counts", o.vocab_counts, "`word count` file of the table (default: TABLE.vocab)");
  cmd.add_option("--seed", o.seed, "Seed the table was trained with (its initial rows), and the LMs' seed")
      ->capture_default_str();
  cmd.add_option("--lm-vocab", o.lm_vocab, "Words the language models keep")->capture_default_str();
  cmd.add_option("--lm-tokens", o.lm_tokens, "Training tokens per language model")->capture_default_str();
  cmd.add_option("--lm-epochs", o.lm_epochs, "Epochs per language model")->capture_default_str();
  cmd.add_option("--context", o.context, "LM context")->capture_default_str();
  cmd.add_option("--dim", o.dim, "LM d")->capture_default_str();
  cmd.add_option("--hidden", o.hidden, "LM hidden width")->capture_default_str();
  cmd.add_flag("--skip-lm", o.skip_lm, "Skip the tied/untied language models (the slow part)");
  auto& g = a->gpt;
  cmd.add_option("--gpt-seeds", g.seeds, "Seeds of the tied/untied GPT pair (mean +- sd over them)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--gpt-steps", g.train.steps, "Optimizer steps per GPT")->capture_default_str()->check(at_least(0));
  cmd.add_option("--gpt-layers", g.train.layers, "GPT blocks")->capture_default_str()->check(at_least(0));
  cmd.add_option("--gpt-d-model", g.train.d_model, "GPT width d_model")->capture_default_str()->check(at_least(0));
  cmd.add_option("--gpt-heads", g.train.heads, "GPT attention heads")->capture_default_str()->check(at_least(0));
  cmd.add_option("--gpt-context", g.train.context, "GPT context (tokens per window)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--gpt-batch", g.train.batch, "GPT windows per step")->capture_default_str()->check(at_least(0));
  cmd.add_option("--gpt-max-words", g.train.max_words, "Words of the GPTs' vocabulary (beside 256 byte tokens)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--gpt-eval-batches", g.train.eval_batches, "Batches of held-out windows the GPTs are scored on")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--gpt-rare-fraction", g.rare_fraction,
                 "Rare targets: this bottom fraction of the training tokens by count")
      ->capture_default_str();
  g.analogies = std::string(LUMEN_DATA_DIR) + "/questions-words.txt";
  cmd.add_option(
         "--analogies", g.analogies,
         "Analogy benchmark of the depth claim (the probe's built-in label sets are made from it; \"\": skip it)")
      ->capture_default_str();
  cmd.add_option("--labels", g.labels, "Label set of the depth claim's probe (a built-in name or word<TAB>label file)")
      ->capture_default_str();
  cmd.add_option("--model", a->model,
                 "Only the claims about this checkpoint (Hugging Face directory or GGUF): depth, and a/an if untied");
  cmd.add_flag("--skip-gpt", a->skip_gpt, "Skip the tied/untied GPTs (six small models: minutes on 2 cores)");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen claims", "lumen claims --lm-tokens 1000000 --lm-epochs 2 --json",
                    "lumen claims --skip-lm --gpt-seeds 5 --gpt-steps 800 --gpt-d-model 128",
                    "lumen claims --model build/default/gpt"});
  return [a] { return run(*a); };
}

const Register reg("claims", "The chapter's claims about learned tables, with figures measured on the default corpus",
                   setup, 61);

}  // namespace
}  // namespace lumen::cli::cmd_claims
