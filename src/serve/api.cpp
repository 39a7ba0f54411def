#include "lumen/serve/api.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "params.hpp"

namespace lumen::serve {

struct Api::State {
  Table main;
  Limits limits;
};

Api::Api(Table table, Limits limits) : state_(std::make_unique<State>()) {
  state_->main = std::move(table);
  state_->limits = limits;
}

Api::~Api() = default;

const Table& Api::table() const { return state_->main; }

namespace {

nlohmann::json info(const Table& t) {
  return {{"source", t.source}, {"format", t.format}, {"V", t.V()}, {"d", t.d()},
          {"dtype", std::string(dtype_name(t.E.dtype()))}};
}

std::vector<float> row_values(const Table& t, std::size_t id) {
  std::vector<float> v(t.d());
  t.E.row_f32(id, v.data());
  for (float& x : v)
    if (!std::isfinite(x)) x = 0.0f;  // JSON has no NaN/Inf
  return v;
}

}  // namespace

nlohmann::json Api::handle(const std::string& route, const nlohmann::json& p) {
  const Table& t = state_->main;
  const Limits& lim = state_->limits;
  if (route == "info") return info(t);
  if (route == "row") {
    Id id;
    if (has(p, "id")) {
      id = get_int(p, "id", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
      if (id < 0 || static_cast<std::size_t>(id) >= t.V())
        throw ApiError(422, fmt::format("id {} is out of range [0, {})", id, t.V()));
    } else {
      id = t.vocab.require(get_string(p, "token"));
    }
    const auto window = static_cast<std::size_t>(get_int_or(p, "window", 6, 0, static_cast<std::int64_t>(lim.max_window)));
    const std::size_t start = static_cast<std::size_t>(id) > window ? static_cast<std::size_t>(id) - window : 0;
    const std::size_t end = std::min(t.V(), static_cast<std::size_t>(id) + window + 1);
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = start; r < end; ++r)
      rows.push_back({{"id", r}, {"token", t.vocab.token(static_cast<Id>(r))}, {"values", row_values(t, r)}});
    return {{"id", id},
            {"token", t.vocab.token(id)},
            {"V", t.V()},
            {"d", t.d()},
            {"onehot", {{"length", t.V()}, {"index", id}}},
            {"vector", row_values(t, static_cast<std::size_t>(id))},
            {"window", {{"start", start}, {"rows", rows}}}};
  }
  throw ApiError(404, fmt::format("unknown API route '{}'", route));
}

}  // namespace lumen::serve
