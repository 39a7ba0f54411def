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
#include "lumen/core/table.hpp"
#include "lumen/search/neighbour.hpp"
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

  // The id a user means: a vocabulary token, a tokenizer label ("␣cat"), or the lower-cased word.
  Id lookup(const Loaded& l, const std::string& word) const {
    if (auto id = l.table.vocab.find(word)) return *id;
    if (tokenizer && l.tokenized)
      if (auto id = tokenizer->find(word); id && static_cast<std::size_t>(*id) < l.table.V()) return *id;
    return l.table.vocab.require(word);  // UnknownTokenError with suggestions -> 422
  }

  nlohmann::json neighbour_list(const Loaded& l, const std::vector<search::Neighbour>& ns) const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& n : ns)
      out.push_back({{"token", l.table.vocab.token(n.id)},
                     {"display", display(l, n.id)},
                     {"id", n.id},
                     {"score", n.score}});  // NaN (a row with NaN or Inf) is written as null, never as 0
    return out;
  }
};

}  // namespace lumen::serve
