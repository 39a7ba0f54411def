// lumen neighbours TABLE WORD...: the k nearest rows to a word (cosine, dot or euclidean), exact by a streaming
// pass (or GEMM for batches), or approximate through an HNSW index with --approx. The word itself is left out,
// as gensim's most_similar does (--keep-query keeps it). No word on the command line: one per line on stdin.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/search/hnsw.hpp"
#include "lumen/search/query_word.hpp"
#include "lumen/search/result_json.hpp"
#include "lumen/search/searcher.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "score_text.hpp"

namespace lumen::cli::cmd_neighbours {
namespace {

struct NeighboursArgs : TableAndWords {
  std::size_t k = 10;
  std::string metric = "cosine";
  std::size_t restrict_rows = 0;
  bool approx = false;
  std::string index_path;
  std::size_t ef = 0;
  bool keep_query = false;
  bool json = false;
};

void print_text(const Table& t, const search::QueryWord& q, search::Metric m, bool approx,
                const std::vector<search::Neighbour>& ns) {
  fmt::print("{} of '{}' ({}{}{}):\n", m == search::Metric::euclidean ? "nearest (by distance)" : "neighbours", q.word,
             search::metric_name(m), approx ? ", approximate" : "",
             q.id ? "" : ", not in the vocabulary: its vector from subword n-grams");
  std::size_t width = 5;
  for (const auto& n : ns) width = std::max(width, t.vocab.label(n.id).size());
  for (std::size_t i = 0; i < ns.size(); ++i)
    fmt::print("  {:>3}  {:<{}}  {:>9.6f}  (id {})\n", i + 1, t.vocab.label(ns[i].id), width, shown(ns[i].score),
               ns[i].id);
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<NeighboursArgs>();
  add_table_and_words(cmd, a->table, a->words, "WORD...: words to look up (none: one per line on stdin)");
  cmd.add_option("-k", a->k, "Neighbours per word (more than the rows: all of them)")
      ->capture_default_str()
      ->check(at_least(1));
  cmd.add_option("--metric", a->metric, "cosine, dot or euclidean")->capture_default_str();
  cmd.add_option("--restrict", a->restrict_rows, "Search only the first N rows (frequency-sorted tables; 0: all)")
      ->check(at_least(0));
  cmd.add_flag("--approx", a->approx, "Approximate search through an HNSW graph (built now unless --index names one)");
  cmd.add_option("--index", a->index_path,
                 "With --approx: HNSW index file; loaded if it exists, else built and saved there for next time");
  cmd.add_option("--ef", a->ef, "With --approx: search breadth (default max(64, 2k); larger: better recall)")
      ->check(at_least(0));
  cmd.add_flag("--keep-query", a->keep_query, "Keep the query word itself among its neighbours");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen neighbours glove.txt king -k 5", "lumen neighbours king queen   # the default table",
                    "lumen neighbours gpt2.safetensors ' king' --metric dot --json",
                    "lumen neighbours big.vec king --approx --index big.vec.cosine.hnsw",
                    "printf 'king\\nqueen\\n' | lumen neighbours glove.txt --json"});
  return [a]() {
    split_table_argument(a->table, a->words);
    const search::Metric metric = search::parse_metric(a->metric);
    if (!a->approx && (!a->index_path.empty() || a->ef != 0)) throw UsageError("--index and --ef go with --approx");
    const bool from_stdin = a->words.empty();
    if (from_stdin) a->words = stdin_lines();
    if (a->words.empty()) throw UsageError("no words given (on the command line or stdin)");
    if (a->json) Progress::set_enabled(false);
    const Table t = load_table(a->table);
    const search::Searcher s(t);
    // A k beyond the rows searched shows them all: said once, never an allocation of k entries.
    const std::size_t rows = a->restrict_rows == 0 ? t.V() : std::min(a->restrict_rows, t.V());
    const std::size_t asked = a->k;
    if (a->k > rows) {
      a->k = rows;
      print_note(fmt::format("-k {} is more than the {} rows searched: showing them all", asked, rows));
    }

    std::optional<search::HnswIndex> index;
    if (a->approx) {
      if (!a->index_path.empty() && std::filesystem::exists(a->index_path)) {
        index = search::HnswIndex::load(a->index_path, s, metric, a->restrict_rows);
      } else {
        StageBar bar({.unit = "rows"});
        search::HnswOptions ho;
        ho.on_progress = std::ref(bar);
        index = search::HnswIndex::build(s, metric, a->restrict_rows, ho);
        bar.finish();
        if (!a->index_path.empty()) index->save(a->index_path);
      }
    }

    // Resolve every word first (a word outside a fastText model's vocabulary gets its subword vector); in a
    // stdin batch an unknown word fails its own line, not the batch.
    std::vector<std::optional<search::QueryWord>> queries(a->words.size());
    std::vector<std::string> errors(a->words.size());
    for (std::size_t i = 0; i < a->words.size(); ++i) {
      try {
        queries[i] = search::lookup(t, a->words[i]);
      } catch (const UnknownTokenError& e) {
        if (!from_stdin) throw;
        errors[i] = e.message();
      }
    }
    search::SearchOptions o;
    o.k = a->k;
    o.metric = metric;
    o.restrict_rows = a->restrict_rows;
    std::vector<std::vector<search::Neighbour>> results(a->words.size());
    if (index) {
      for (std::size_t i = 0; i < queries.size(); ++i)
        if (queries[i]) {
          std::vector<Id> ex;
          if (!a->keep_query && queries[i]->id) ex.push_back(*queries[i]->id);
          results[i] = index->search(queries[i]->vector, a->k, ex, a->ef);
        }
    } else {
      std::vector<std::size_t> which;  // the words that resolved
      std::vector<search::QueryWord> found;
      for (std::size_t i = 0; i < queries.size(); ++i)
        if (queries[i]) {
          which.push_back(i);
          found.push_back(*queries[i]);
        }
      auto batch = search::neighbours_of(s, found, o, a->keep_query);
      for (std::size_t j = 0; j < which.size(); ++j) results[which[j]] = std::move(batch[j]);
    }

    int code = kOk;
    for (std::size_t i = 0; i < a->words.size(); ++i) {
      if (queries[i] &&
          !std::all_of(queries[i]->vector.begin(), queries[i]->vector.end(), [](float x) { return std::isfinite(x); }))
        print_note(fmt::format("'{}' has NaN or Inf in its row: every score is nan", a->words[i]));
      if (!queries[i]) {
        code = kInputError;
        if (a->json) print_json({{"query", a->words[i]}, {"error", errors[i]}});
        else print_error(errors[i]);
        continue;
      }
      if (a->json) {
        print_json(search::neighbours_json(a->words[i], queries[i]->id, metric, a->approx, a->k, asked, results[i],
                                           RowNames{t.vocab, {}}));
      } else {
        print_text(t, *queries[i], metric, a->approx, results[i]);
      }
    }
    return code;
  };
}

const Register reg("neighbours", "Nearest neighbours of words (cosine, dot, euclidean; exact or --approx)", setup, 30);

}  // namespace
}  // namespace lumen::cli::cmd_neighbours
