#pragma once
// The API's state (private to src/serve): the tables it answers from, the tokenizer, the limits and the background
// jobs, with the lookups every route shares. The routes themselves are in routes.cpp and job_routes.cpp.
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/row_label.hpp"
#include "lumen/core/table.hpp"
#include "lumen/search/neighbour.hpp"
#include "lumen/search/query_word.hpp"
#include "lumen/search/result_json.hpp"
#include "lumen/search/searcher.hpp"
#include "lumen/serve/api.hpp"
#include "lumen/serve/job_cache.hpp"
#include "lumen/text/tokenizer.hpp"
#include "params.hpp"

namespace lumen::serve {

// A table the API answers from, with its searcher (row norms computed once).
struct Loaded {
  std::string name;  // what requests call it
  Table table;
  std::unique_ptr<search::Searcher> searcher;
  bool tokenized = false;  // rows labelled by the tokenizer (the main table, and a further one of the same V)
  Loaded(std::string n, Table t)
      : name(std::move(n)), table(std::move(t)), searcher(std::make_unique<search::Searcher>(table)) {}
};

struct Api::State {
  std::unique_ptr<Loaded> main, toy;
  std::vector<std::unique_ptr<Loaded>> others;  // further tables, in the order served
  std::shared_ptr<const text::Tokenizer> tokenizer;
  std::optional<ServedModel> model;  // for the Drift view
  Limits limits;
  // Projections and comparisons, by their parameters. Declared last, so destroyed first: its destructor waits for
  // the running jobs, which read the tables above.
  JobCache jobs;

  // The model, or 409: the request is fine, this server just has no model to run it on.
  const ServedModel& require_model() const {
    if (!model)
      throw ApiError(409, "this server has no model loaded: the Drift view needs a GPT-2 or Llama checkpoint");
    return *model;
  }

  const Loaded& pick(const nlohmann::json& p) const { return named(get_string_or(p, "table", "main")); }

  const Loaded& named(const std::string& name) const {
    for (const Loaded* l : all())
      if (l->name == name) return *l;
    std::string known;
    for (const Loaded* l : all()) known += (known.empty() ? "" : ", ") + l->name;
    throw ApiError(422, fmt::format("unknown table '{}' (this server has {})", name, known));
  }

  // Every table served: main, the further ones, toy.
  std::vector<const Loaded*> all() const {
    std::vector<const Loaded*> out{main.get()};
    for (const auto& o : others) out.push_back(o.get());
    out.push_back(toy.get());
    return out;
  }

  // How a row reads: its tokenizer label for a tokenized table, else the vocabulary token.
  std::string display(const Loaded& l, Id id) const {
    if (tokenizer && l.tokenized && tokenizer->has(id)) return tokenizer->label(id);
    return l.table.vocab.token(id);
  }

  // The id a user means: a vocabulary token, a tokenizer label ("␣cat"), the word after a space as a byte-level
  // BPE spells a word inside a sentence ("man" finds GPT-2's "␣man" when "man" is no token of its own), or the
  // lower-cased word.
  Id lookup(const Loaded& l, const std::string& word) const {
    if (auto id = find_spelling(l, word)) return *id;
    if (!word.empty() && word.front() != ' ')
      if (auto id = find_spelling(l, " " + word)) return *id;
    return l.table.vocab.require(word);  // UnknownTokenError with suggestions -> 422
  }

  // A vocabulary token, or (on a tokenized table) a spelling the tokenizer accepts: " cat", "␣cat", "Ġcat".
  std::optional<Id> find_spelling(const Loaded& l, const std::string& word) const {
    if (auto id = l.table.vocab.find(word)) return id;
    if (tokenizer && l.tokenized)
      if (auto id = tokenizer->find(word); id && static_cast<std::size_t>(*id) < l.table.V()) return id;
    return std::nullopt;
  }

  // A word as a search takes it: its row (found as lookup() finds it) and that row's vector.
  search::QueryWord query(const Loaded& l, const std::string& word) const {
    const Id id = lookup(l, word);
    search::QueryWord q{word, id, std::vector<float>(l.table.d())};
    l.table.E.row_f32(static_cast<std::size_t>(id), q.vector.data());
    return q;
  }

  // A table's rows as results name them (lumen::RowNames): the token, and the display label above.
  RowNames names(const Loaded& l) const {
    return {l.table.vocab, [this, &l](Id id) { return display(l, id); }};
  }

  nlohmann::json neighbour_list(const Loaded& l, const std::vector<search::Neighbour>& ns) const {
    return search::scored_rows_json(ns, names(l));  // NaN (a row with NaN or Inf) is null, never 0
  }
};

}  // namespace lumen::serve
