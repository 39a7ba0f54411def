#include "lumen/serve/api.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "api_state.hpp"
#include "lumen/core/toy.hpp"
#include "routes.hpp"

namespace lumen::serve {

Api::Api(Table table, const Limits& limits) : Api(std::move(table), nullptr, limits) {}

Api::Api(Table table, std::shared_ptr<const text::Tokenizer> tokenizer, const Limits& limits)
    : Api(std::move(table), std::move(tokenizer), {}, limits) {}

Api::Api(Table table, std::shared_ptr<const text::Tokenizer> tokenizer, std::vector<NamedTable> others,
         const Limits& limits)
    : state_(std::make_unique<State>()) {
  state_->main = std::make_unique<Loaded>("main", std::move(table));
  state_->main->tokenized = true;
  state_->toy = std::make_unique<Loaded>("toy", toy_table());
  for (auto& o : others) {
    const bool valid = !o.name.empty() && o.name.size() <= 64 &&
                       std::all_of(o.name.begin(), o.name.end(),
                                   [](unsigned char c) { return std::isalnum(c) != 0 || c == '-' || c == '_'; });
    if (!valid) throw UsageError(fmt::format("table name '{}': use letters, digits, '-' and '_'", o.name));
    for (const Loaded* l : state_->all())
      if (l->name == o.name) throw UsageError(fmt::format("two tables are named '{}'", o.name));
    state_->others.push_back(std::make_unique<Loaded>(o.name, std::move(o.table)));
    state_->others.back()->tokenized = state_->others.back()->table.V() == state_->main->table.V();
  }
  state_->tokenizer = std::move(tokenizer);
  state_->limits = limits;
}

Api::~Api() = default;

void Api::set_model(ServedModel model) {
  if (!model.model || !model.tokenizer) throw UsageError("a served model needs its weights and its tokenizer");
  state_->model = std::move(model);
}

const Table& Api::table() const { return state_->main->table; }

bool Api::starts_work(const std::string& route) {
  return route == "projection" || route == "compare" || route == "drift";
}

nlohmann::json Api::handle(const std::string& route, const nlohmann::json& p) {
  State& s = *state_;
  if (route == "info") return routes::info(s);
  if (route == "tokenize") return routes::tokenize(s, p);
  if (route == "row") return routes::row(s, p);
  if (route == "neighbours") return routes::neighbours(s, p);
  if (route == "similarity") return routes::similarity(s, p);
  if (route == "analogy") return routes::analogy(s, p);
  if (route == "doesnt-match") return routes::doesnt_match(s, p);
  if (route == "params") return routes::params(p);
  if (route == "projection") return routes::projection(s, p);
  if (route == "compare") return routes::compare(s, p);
  if (route == "model") return routes::model(s);
  if (route == "drift") return routes::drift(s, p);
  if (route == "job") return routes::job(s, p);
  throw ApiError(404, fmt::format("unknown API route '{}'", route));
}

}  // namespace lumen::serve
