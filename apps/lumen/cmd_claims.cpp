// lumen claims: the chapter's claims about learned tables, each printed with the figure measured on the default
// corpus (Brown) and table. Parsing and printing only; the experiment is the library's (lumen/train/claims.hpp).
#include <cmath>
#include <fmt/format.h>
#include <optional>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/train/claims.hpp"
#include "lumen/train/result_json.hpp"
#include "messages.hpp"
#include "progress_bar.hpp"

namespace lumen::cli {
namespace {

struct Args {
  TableArgs table;
  train::ClaimsOptions o;
  bool json = false;
};

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
  std::optional<Progress> bar;
  std::string stage;
  a.o.progress = [&](const train::ClaimsProgress& p) {
    if (!bar || stage != p.stage) {
      bar.reset();
      stage = p.stage;
      bar.emplace(stage, p.total, stage == "vocabulary" ? "bytes" : "tokens");
    }
    bar->update(p.done, stage == "vocabulary" ? "" : fmt::format("loss {:.3f}", p.loss));
  };
  std::optional<train::ClaimsResult> r;
  try {
    r = train::run_claims(t, a.table.path, a.o);
  } catch (const train::ClaimsInputError& e) {
    throw InputError(e.text_for(option_flag));
  }
  if (bar) bar->finish();
  if (a.json) print_json(train::claims_result_json(*r));
  else print_text(*r);
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
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen claims", "lumen claims --lm-tokens 1000000 --lm-epochs 2 --json"});
  return [a] { return run(*a); };
}

const Register reg("claims", "The chapter's claims about learned tables, with figures measured on the default corpus",
                   setup, 61);

}  // namespace
}  // namespace lumen::cli
