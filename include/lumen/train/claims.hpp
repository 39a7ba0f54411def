#pragma once
// The chapter's claims about learned tables, measured (what `lumen claims` prints): nothing is asserted in
// advance, the experiment reports what it measures.
//
// 1. Tying: held-out perplexity of two next-token models (train_lm sessions) at equal settings and seed, tied and
//    untied, on a corpus (by default brown.txt beside the table).
// 2. Frequency and length: the Spearman rank correlation between a word's corpus count (the table's `word count`
//    file) and its vector's length.
// 3. Similarity of use becomes similarity of geometry: cosines of related and unrelated pairs in the trained
//    table and in the same rows at initialisation (Word2Vec::init_input with the table's seed).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/train/optimizer.hpp"

namespace lumen::train {

// How far a claims run is, the table's (run_claims) and the GPT's (model::run_gpt_claims) alike: `stage`
// ("vocabulary", "tokenize", "lm (tied)", "gpt untied", ...), done of total in `unit`; while a model trains, its
// loss and, over several seeds, which seed (0-based) of how many.
struct ClaimsProgress {
  std::string_view stage;
  std::uint64_t done = 0, total = 0;
  std::string_view unit = "bytes";  // "bytes" (counting, tokenising), "tokens" (an lm), "steps" (a GPT)
  double loss = 0;
  std::size_t seed_index = 0, seeds = 0;  // seeds 0: one run, no seed to name
  bool training() const { return unit != "bytes"; }
};

struct ClaimsOptions {
  std::string vocab_counts;          // the table's `word count` file ("": TABLE.vocab)
  std::string corpus;                // for the tied/untied comparison ("": brown.txt beside the table)
  std::uint64_t seed = 1;            // the seed the table was trained with (its initial rows), and the models' seed
  std::size_t lm_vocab = 2000;       // words the two models keep (the rest are <unk>)
  std::uint64_t lm_tokens = 200000;  // training tokens per model
  std::size_t lm_epochs = 1;
  std::size_t context = 3, dim = 64, hidden = 128;
  bool skip_lm = false;  // skip the two models (the slow part)
  std::function<void(const ClaimsProgress&)> progress;
};

struct ClaimsPair {
  std::string a, b;
  bool related = false;
  double init = 0, trained = 0;  // cosine at initialisation and in the trained table
};

struct ClaimsLmRun {
  double heldout_perplexity = 0, train_loss = 0;
  std::uint64_t heldout_tokens = 0;
  std::size_t V = 0;
};

struct ClaimsTying {
  std::string corpus;
  std::size_t context = 0, dim = 0, hidden = 0, epochs = 0;
  std::uint64_t train_tokens = 0, seed = 0;
  OptimizerKind optimizer = OptimizerKind::adam;
  ClaimsLmRun tied, untied;
};

struct ClaimsResult {
  std::string table;  // the table's path, as given
  std::size_t V = 0, d = 0;
  std::uint64_t seed = 0;
  double spearman = 0;               // frequency vs vector length
  std::size_t rows = 0;              // rows with a count
  std::vector<ClaimsPair> pairs;     // the probe pairs whose words are all in the table
  std::optional<ClaimsTying> tying;  // absent with skip_lm
};

// The corpus the models train on: `corpus`, or brown.txt beside the table when it is empty.
std::string claims_corpus(const std::string& table_path, const std::string& corpus);

// `table` is the trained table, `table_path` where it was read (the counts file and the corpus are looked for
// beside it). Throws InputError for a missing counts file or corpus (naming the options {vocab_counts}, {corpus}
// and {skip_lm}: Error::text_for), InputError when fewer than 3 of the table's words have counts, and what the
// models throw.
ClaimsResult run_claims(const Table& table, const std::string& table_path, const ClaimsOptions& options);

}  // namespace lumen::train
