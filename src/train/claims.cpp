#include "lumen/train/claims.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <span>

#include "lumen/core/cosine.hpp"
#include "lumen/eval/correlation.hpp"
#include "lumen/train/session.hpp"
#include "lumen/train/vocabulary.hpp"
#include "lumen/train/word2vec.hpp"

namespace lumen::train {

namespace {

// Related pairs against unrelated ones sharing a word: {a, related to a, unrelated to a}.
using ProbeTriple = std::array<const char*, 3>;
constexpr std::array<ProbeTriple, 4> kProbes = {{{"cat", "dog", "parliament"},
                                                 {"king", "queen", "tuesday"},
                                                 {"monday", "tuesday", "truck"},
                                                 {"car", "truck", "france"}}};

// 2. Frequency and vector length.
void frequency_length(const Table& t, const std::string& vocab_path, ClaimsResult& r) {
  if (!std::filesystem::exists(vocab_path))
    throw InputError(OptionText{
        fmt::format("{}: no counts file beside the table (a `word count` file, written by lumen train); give one with "
                    "{{vocab_counts}}",
                    vocab_path),
        {"vocab_counts"}});
  const Vocab counts = load_vocab_counts(vocab_path);
  std::vector<double> freq, len;
  std::vector<float> row(t.d());
  for (std::size_t i = 0; i < t.V(); ++i) {
    auto id = counts.find(t.vocab.token(static_cast<Id>(i)));
    if (!id) continue;
    t.E.row_f32(i, row.data());
    double n2 = 0;
    for (float x : row) n2 += static_cast<double>(x) * x;
    freq.push_back(static_cast<double>(counts.count(*id)));
    len.push_back(std::sqrt(n2));
  }
  if (freq.size() < 3) throw InputError(fmt::format("{}: fewer than 3 of the table's words have counts", vocab_path));
  r.spearman = eval::spearman(freq, len);
  r.rows = freq.size();
}

// 3. Similarity of use becomes similarity of geometry: trained vs the same rows at initialisation.
void probe_pairs(const Table& t, std::uint64_t seed, ClaimsResult& r) {
  const Matrix E0 = Word2Vec::init_input(t.V(), t.d(), seed);
  std::vector<float> r1(t.d()), r2(t.d());
  for (const auto& p : kProbes) {
    auto x = t.vocab.find(p[0]), y = t.vocab.find(p[1]), z = t.vocab.find(p[2]);
    if (!x || !y || !z) continue;
    t.E.row_f32(static_cast<std::size_t>(*x), r1.data());
    for (const auto& [word, id] : {std::pair{p[1], *y}, std::pair{p[2], *z}}) {
      t.E.row_f32(static_cast<std::size_t>(id), r2.data());
      r.pairs.push_back({p[0], word, word == p[1],
                         cosine(E0.row(static_cast<std::size_t>(*x)), E0.row(static_cast<std::size_t>(id))),
                         cosine(r1, r2)});
    }
  }
}

// 1. Tied vs untied at equal settings and seed.
ClaimsTying tying(const std::string& corpus_path, const ClaimsOptions& o) {
  if (!std::filesystem::exists(corpus_path))
    throw InputError(OptionText{
        fmt::format("{}: the corpus for the tied/untied comparison is missing (give {{corpus}}, or {{skip_lm}})",
                    corpus_path),
        {"corpus", "skip_lm"}});
  LmOptions lo{.context = o.context,
               .dim = o.dim,
               .hidden = o.hidden,
               .epochs = o.lm_epochs,
               .max_train_tokens = o.lm_tokens,
               .seed = o.seed,
               .tokenizer = {.lower = true}};
  ClaimsTying ty{corpus_path, lo.context, lo.dim, lo.hidden, lo.epochs, lo.max_train_tokens, lo.seed, lo.optimizer};
  for (bool tie : {true, false}) {
    lo.tie = tie;
    SessionControl control;
    const std::string_view stage = tie ? "lm (tied)" : "lm (untied)";
    if (o.progress)
      control.on_progress = [&](const SessionProgress& p) {
        o.progress(
            p.phase == SessionPhase::vocabulary
                ? ClaimsProgress{.stage = "vocabulary", .done = p.done, .total = p.total}
                : ClaimsProgress{
                      .stage = stage, .done = p.done, .total = p.total, .unit = "tokens", .loss = p.status.loss});
      };
    const auto run = train_lm({{corpus_path}, 1, o.lm_vocab}, lo, {}, control);
    const auto& e = run.epochs.back();
    (tie ? ty.tied : ty.untied) = {e.heldout_perplexity, e.train_loss, e.heldout_tokens, run.table.V()};
  }
  return ty;
}

}  // namespace

std::string claims_corpus(const std::string& table_path, const std::string& corpus) {
  return corpus.empty() ? (std::filesystem::path(table_path).parent_path() / "brown.txt").string() : corpus;
}

ClaimsResult run_claims(const Table& table, const std::string& table_path, const ClaimsOptions& o) {
  ClaimsResult r;
  r.table = table_path;
  r.V = table.V();
  r.d = table.d();
  r.seed = o.seed;
  frequency_length(table, o.vocab_counts.empty() ? table_path + ".vocab" : o.vocab_counts, r);
  probe_pairs(table, o.seed, r);
  if (!o.skip_lm) r.tying = tying(claims_corpus(table_path, o.corpus), o);
  return r;
}

}  // namespace lumen::train
