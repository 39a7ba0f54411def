// lumen claims: the chapter's claims about learned tables, each printed with the figure measured on the default
// corpus (Brown) and table. Nothing here is asserted in advance: the command reports what it measures.
#include <cmath>
#include <filesystem>
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/correlation.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/lm.hpp"
#include "lumen/train/vocabulary.hpp"
#include "lumen/train/word2vec.hpp"
#include "progress_bar.hpp"

namespace lumen::cli {
namespace {

struct Args {
  TableArgs table;
  std::string corpus, vocab;
  std::uint64_t seed = 1;       // the default table's seed (scripts/make-default-table.sh)
  std::size_t lm_vocab = 2000;  // words kept by the two language models (the rest are <unk>)
  std::uint64_t lm_tokens = 200000;
  std::size_t lm_epochs = 1;
  std::size_t context = 3, dim = 64, hidden = 128;
  bool skip_lm = false;
  bool json = false;
};

double cosine(std::span<const float> x, std::span<const float> y) {
  double xy = 0, xx = 0, yy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xy += static_cast<double>(x[i]) * y[i];
    xx += static_cast<double>(x[i]) * x[i];
    yy += static_cast<double>(y[i]) * y[i];
  }
  return xx > 0 && yy > 0 ? xy / std::sqrt(xx * yy) : 0.0;
}

// Related pairs against unrelated ones sharing a word.
const std::vector<std::array<const char*, 3>> kPairs = {{"cat", "dog", "parliament"},
                                                        {"king", "queen", "tuesday"},
                                                        {"monday", "tuesday", "truck"},
                                                        {"car", "truck", "france"}};

int run(Args& a) {
  if (a.json) Progress::set_enabled(false);
  if (a.table.path.empty()) a.table.path = require_default_table();
  Table t = load_table(a.table);
  const std::string vocab_path = a.vocab.empty() ? a.table.path + ".vocab" : a.vocab;
  if (!std::filesystem::exists(vocab_path))
    throw InputError(
        fmt::format("{}: no counts file beside the table (a `word count` file, written by lumen train); "
                    "give one with --vocab-counts",
                    vocab_path));
  const Vocab counts = train::load_vocab_counts(vocab_path);
  nlohmann::json out;

  // 2. Frequency and vector length.
  std::vector<double> freq, len;
  for (std::size_t i = 0; i < t.V(); ++i) {
    auto id = counts.find(t.vocab.token(static_cast<Id>(i)));
    if (!id) continue;
    std::vector<float> row(t.d());
    t.E.row_f32(i, row.data());
    double n2 = 0;
    for (float x : row) n2 += static_cast<double>(x) * x;
    freq.push_back(static_cast<double>(counts.count(*id)));
    len.push_back(std::sqrt(n2));
  }
  if (freq.size() < 3) throw InputError(fmt::format("{}: fewer than 3 of the table's words have counts", vocab_path));
  const double rho = eval::spearman(freq, len);
  out["frequency_length"] = {{"spearman", rho}, {"rows", freq.size()}, {"table", a.table.path}};

  // 3. Similarity of use becomes similarity of geometry: trained vs the same rows at initialisation.
  const Matrix E0 = train::Word2Vec::init_input(t.V(), t.d(), a.seed);
  nlohmann::json pairs = nlohmann::json::array();
  std::vector<float> r1(t.d()), r2(t.d());
  auto cos_trained = [&](Id x, Id y) {
    t.E.row_f32(static_cast<std::size_t>(x), r1.data());
    t.E.row_f32(static_cast<std::size_t>(y), r2.data());
    return cosine(r1, r2);
  };
  for (auto& p : kPairs) {
    auto x = t.vocab.find(p[0]), y = t.vocab.find(p[1]), z = t.vocab.find(p[2]);
    if (!x || !y || !z) continue;
    for (auto other : {std::pair{p[1], *y}, std::pair{p[2], *z}})
      pairs.push_back(
          {{"a", p[0]},
           {"b", other.first},
           {"related", other.first == p[1]},
           {"init", cosine(E0.row(static_cast<std::size_t>(*x)), E0.row(static_cast<std::size_t>(other.second)))},
           {"trained", cos_trained(*x, other.second)}});
  }
  out["pairs"] = pairs;

  // 1. Tied vs untied at equal settings and seed.
  if (!a.skip_lm) {
    const std::string corpus_path =
        a.corpus.empty() ? (std::filesystem::path(a.table.path).parent_path() / "brown.txt").string() : a.corpus;
    if (!std::filesystem::exists(corpus_path))
      throw InputError(
          fmt::format("{}: the corpus for the tied/untied comparison is missing (give --corpus, or "
                      "--skip-lm)",
                      corpus_path));
    const auto corpus = train::Corpus::open({corpus_path});
    train::LmOptions o;
    o.context = a.context;
    o.dim = a.dim;
    o.hidden = a.hidden;
    o.epochs = a.lm_epochs;
    o.max_train_tokens = a.lm_tokens;
    o.seed = a.seed;
    o.tokenizer.lower = true;
    train::VocabOptions vo{1, a.lm_vocab, train::LanguageModel::train_end(corpus, o.holdout)};
    const Vocab words = train::build_vocab(corpus, text::WordSplitter(o.tokenizer), vo);
    nlohmann::json runs = nlohmann::json::object();
    for (bool tie : {true, false}) {
      o.tie = tie;
      train::LanguageModel lm(corpus, words, o);
      Progress bar(tie ? "lm (tied)" : "lm (untied)", lm.status().words_total, "tokens");
      train::TrainControl ctl;
      ctl.on_progress = [&](const train::TrainStatus& st) {
        bar.update(st.words_done, fmt::format("loss {:.3f}", st.loss));
      };
      lm.train(ctl);
      bar.finish();
      const auto& e = lm.history().back();
      runs[tie ? "tied" : "untied"] = {{"heldout_perplexity", e.heldout_perplexity},
                                       {"train_loss", e.train_loss},
                                       {"heldout_tokens", e.heldout_tokens},
                                       {"V", lm.vocab().size()}};
    }
    out["tying"] = {{"corpus", corpus_path},   {"context", o.context}, {"d", o.dim},
                    {"hidden", o.hidden},      {"epochs", o.epochs},   {"train_tokens", o.max_train_tokens},
                    {"optimizer", "adam"},     {"seed", o.seed},       {"tied", runs["tied"]},
                    {"untied", runs["untied"]}};
  }

  if (a.json) {
    print_json(out);
    return kOk;
  }
  fmt::print("The chapter's claims, measured (table {}, {} x {})\n\n", a.table.path, t.V(), t.d());
  if (out.contains("tying")) {
    const auto& ty = out["tying"];
    const double pt = ty["tied"]["heldout_perplexity"], pu = ty["untied"]["heldout_perplexity"];
    fmt::print("1. \"Tying the output head to E tends to help small models.\"\n");
    fmt::print(
        "   lumen train lm on {} ({} training tokens, context {}, d {}, H {}, V {}, {} epoch(s), adam, seed {}):\n",
        std::string(ty["corpus"]), std::uint64_t(ty["train_tokens"]), std::size_t(ty["context"]), std::size_t(ty["d"]),
        std::size_t(ty["hidden"]), std::size_t(ty["tied"]["V"]), std::size_t(ty["epochs"]), std::uint64_t(ty["seed"]));
    fmt::print("     tied    held-out perplexity {:8.2f}\n     untied  held-out perplexity {:8.2f}\n", pt, pu);
    fmt::print("   measured: tying {} held-out perplexity by {:.1f}% here (with {} fewer parameters).\n\n",
               pt < pu ? "lowered" : "raised", std::abs(pu - pt) / pu * 100.0,
               std::size_t(ty["tied"]["V"]) * std::size_t(ty["d"]));
  }
  fmt::print("2. \"Frequent tokens often get longer vectors.\"\n");
  fmt::print("   Spearman rank correlation between a word's corpus count and its vector length: {:+.3f} ({} rows)\n\n",
             rho, freq.size());
  fmt::print("3. \"Similarity of use becomes similarity of geometry.\"\n");
  fmt::print("   {:<22} {:>10} {:>10}\n", "cosine", "at init", "trained");
  for (auto& p : pairs)
    fmt::print("   {:<22} {:>+10.3f} {:>+10.3f}\n", std::string(p["a"]) + " ~ " + std::string(p["b"]),
               double(p["init"]), double(p["trained"]));
  if (pairs.empty()) fmt::print("   (none of the probe words are in this table)\n");
  fmt::print("   (init: uniform [-1/d, 1/d) rows from seed {}, as training started)\n", a.seed);
  return kOk;
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<Args>();
  add_table_options(cmd, a->table);
  cmd.add_option("--corpus", a->corpus, "Corpus for the tied/untied comparison (default: brown.txt beside the table)");
  cmd.add_option("--vocab-counts", a->vocab, "`word count` file of the table (default: TABLE.vocab)");
  cmd.add_option("--seed", a->seed, "Seed the table was trained with (its initial rows), and the LMs' seed")
      ->capture_default_str();
  cmd.add_option("--lm-vocab", a->lm_vocab, "Words the language models keep")->capture_default_str();
  cmd.add_option("--lm-tokens", a->lm_tokens, "Training tokens per language model")->capture_default_str();
  cmd.add_option("--lm-epochs", a->lm_epochs, "Epochs per language model")->capture_default_str();
  cmd.add_option("--context", a->context, "LM context")->capture_default_str();
  cmd.add_option("--dim", a->dim, "LM d")->capture_default_str();
  cmd.add_option("--hidden", a->hidden, "LM hidden width")->capture_default_str();
  cmd.add_flag("--skip-lm", a->skip_lm, "Skip the tied/untied language models (the slow part)");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen claims", "lumen claims --lm-tokens 1000000 --lm-epochs 2 --json"});
  return [a] { return run(*a); };
}

const Register reg("claims", "The chapter's claims about learned tables, with figures measured on the default corpus",
                   setup, 61);

}  // namespace
}  // namespace lumen::cli
