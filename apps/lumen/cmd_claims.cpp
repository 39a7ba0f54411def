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
#include "lumen/train/claims.hpp"
#include "lumen/train/result_json.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_claims {
namespace {

struct Args {
  TableArgs table;
  train::ClaimsOptions o;
  model::GptClaimsOptions gpt;
  bool skip_gpt = false, json = false;
};

// The GPT options' flags: --gpt- and the library's name in kebab case.
std::string gpt_flag(std::string_view library_name) {
  static const std::set<std::string, std::less<>> kFlagged = {"seeds",   "steps", "layers",    "d_model",     "heads",
                                                              "context", "batch", "max_words", "eval_batches"};
  if (!kFlagged.contains(library_name)) return std::string(library_name);
  return "--gpt-" + option_flag(library_name).substr(2);
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
  }
  fmt::print("   (spread: sample standard deviation over the seeds; {:.0f} s in all)\n", r.seconds);
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

int run(Args& a) {
  if (a.json) Progress::set_enabled(false);
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
  cmd.add_flag("--skip-gpt", a->skip_gpt, "Skip the tied/untied GPTs (six small models: minutes on 2 cores)");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen claims", "lumen claims --lm-tokens 1000000 --lm-epochs 2 --json",
                    "lumen claims --skip-lm --gpt-seeds 5 --gpt-steps 800 --gpt-d-model 128"});
  return [a] { return run(*a); };
}

const Register reg("claims", "The chapter's claims about learned tables, with figures measured on the default corpus",
                   setup, 61);

}  // namespace
}  // namespace lumen::cli::cmd_claims
