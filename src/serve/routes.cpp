#include "routes.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "lumen/core/dtype.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/nn/params_json.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/text/word_splitter.hpp"

namespace lumen::serve::routes {

namespace {

std::vector<float> finite_row(const Table& t, std::size_t id) {
  std::vector<float> v(t.d());
  t.E.row_f32(id, v.data());
  for (float& x : v)
    if (!std::isfinite(x)) x = 0.0f;  // JSON has no NaN/Inf
  return v;
}

}  // namespace

nlohmann::json info(const Api::State& s) {
  const Table& t = s.main->table;
  nlohmann::json names = nlohmann::json::array(), described = nlohmann::json::array();
  for (const Loaded* l : s.all()) {
    names.push_back(l->name);
    described.push_back({{"name", l->name}, {"source", l->table.source}, {"V", l->table.V()}, {"d", l->table.d()}});
  }
  return {{"source", t.source},
          {"format", t.format},
          {"V", t.V()},
          {"d", t.d()},
          {"dtype", std::string(dtype_name(t.E.dtype()))},
          {"tokenizer", s.tokenizer ? nlohmann::json(s.tokenizer->source) : nlohmann::json(nullptr)},
          {"tables", names},
          {"table_info", described}};
}

nlohmann::json tokenize(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = *s.main;
  const std::string text = get_string(p, "text", s.limits.max_text_bytes);
  nlohmann::json toks = nlohmann::json::array();
  if (s.tokenizer) {
    for (Id id : s.tokenizer->encode(text)) {
      const bool in_table = static_cast<std::size_t>(id) < l.table.V();
      toks.push_back({{"text", s.tokenizer->piece(id)},
                      {"display", s.tokenizer->label(id)},
                      {"id", in_table ? nlohmann::json(id) : nlohmann::json(nullptr)}});
    }
    return {{"tokens", toks}, {"tokenizer", s.tokenizer->source}};
  }
  // A word table: split on spaces and punctuation; a word not in the vocabulary may be there lower-cased.
  text::WordSplitter words(text::WordSplitOptions{.lower = false, .split_punct = true});
  for (const auto& w : words.split_text(text)) {
    std::optional<Id> id = l.table.vocab.find(w);
    if (!id) {
      std::string lower = w;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      id = l.table.vocab.find(lower);
    }
    toks.push_back({{"text", w}, {"display", w}, {"id", id ? nlohmann::json(*id) : nlohmann::json(nullptr)}});
  }
  return {{"tokens", toks}, {"tokenizer", "words"}};
}

nlohmann::json row(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const Table& t = l.table;
  Id id;
  if (has(p, "id")) {
    id = get_int(p, "id", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
    if (id < 0 || static_cast<std::size_t>(id) >= t.V())
      throw ApiError(422, fmt::format("id {} is out of range [0, {})", id, t.V()));
  } else {
    id = s.lookup(l, get_string(p, "token"));
  }
  const auto window =
      static_cast<std::size_t>(get_int_or(p, "window", 6, 0, static_cast<std::int64_t>(s.limits.max_window)));
  const auto uid = static_cast<std::size_t>(id);
  const std::size_t start = uid > window ? uid - window : 0;
  const std::size_t end = std::min(t.V(), uid + window + 1);
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t r = start; r < end; ++r)
    rows.push_back({{"id", r},
                    {"token", t.vocab.token(static_cast<Id>(r))},
                    {"display", s.display(l, static_cast<Id>(r))},
                    {"values", finite_row(t, r)}});
  return {{"id", id},
          {"token", t.vocab.token(id)},
          {"display", s.display(l, id)},
          {"V", t.V()},
          {"d", t.d()},
          {"onehot", {{"length", t.V()}, {"index", id}}},
          {"vector", finite_row(t, uid)},
          {"window", {{"start", start}, {"rows", rows}}}};
}

nlohmann::json neighbours(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const Id id = s.lookup(l, get_string(p, "word"));
  search::SearchOptions o;
  o.k = static_cast<std::size_t>(get_int_or(p, "k", 10, 1, static_cast<std::int64_t>(s.limits.max_k)));
  o.metric = search::parse_metric(get_string_or(p, "metric", "cosine"));
  o.exclude = {id};
  return {{"query", get_string(p, "word")},
          {"id", id},
          {"metric", std::string(search::metric_name(o.metric))},
          {"neighbours", s.neighbour_list(l, l.searcher->search(l.searcher->row(id), o))}};
}

nlohmann::json similarity(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const std::string w1 = get_string(p, "w1"), w2 = get_string(p, "w2");
  const Id a = s.lookup(l, w1), b = s.lookup(l, w2);
  const auto& S = *l.searcher;
  search::SearchOptions o;
  o.k = static_cast<std::size_t>(get_int_or(p, "k", 8, 1, static_cast<std::int64_t>(s.limits.max_k)));
  o.exclude = {a};
  auto n1 = S.search(S.row(a), o);
  o.exclude = {b};
  auto n2 = S.search(S.row(b), o);
  return {{"w1", w1},
          {"w2", w2},
          {"id1", a},
          {"id2", b},
          {"cosine", S.similarity(a, b, search::Metric::cosine)},
          {"dot", S.similarity(a, b, search::Metric::dot)},
          {"norm1", S.norm(a)},
          {"norm2", S.norm(b)},
          {"neighbours1", s.neighbour_list(l, n1)},
          {"neighbours2", s.neighbour_list(l, n2)}};
}

nlohmann::json analogy(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const std::string wa = get_string(p, "a"), wb = get_string(p, "b"), wc = get_string(p, "c");
  const Id a = s.lookup(l, wa), b = s.lookup(l, wb), c = s.lookup(l, wc);
  search::AnalogyOptions o;
  o.method = search::parse_analogy_method(get_string_or(p, "method", "add"));
  o.k = static_cast<std::size_t>(get_int_or(p, "k", 10, 1, static_cast<std::int64_t>(s.limits.max_k)));
  o.exclude_inputs = get_bool_or(p, "exclude", true);
  const auto result = search::analogy(*l.searcher, a, b, c, o);
  // Where each input would rank in the raw ranking (no exclusion): the chapter's caveat, made visible.
  search::AnalogyOptions raw = o;
  raw.exclude_inputs = false;
  raw.k = 1;
  nlohmann::json ranks = nlohmann::json::object();
  for (auto [w, id] : {std::pair{wa, a}, std::pair{wb, b}, std::pair{wc, c}}) {
    auto r = search::analogy(*l.searcher, a, b, c, raw, id);
    ranks[w] = r.rank ? nlohmann::json(*r.rank) : nlohmann::json(nullptr);
  }
  return {{"a", wa},
          {"b", wb},
          {"c", wc},
          {"method", std::string(search::analogy_method_name(o.method))},
          {"excluded", o.exclude_inputs},
          {"answers", s.neighbour_list(l, result.answers)},
          {"input_ranks", ranks}};
}

nlohmann::json params(const nlohmann::json& p) {
  nn::ModelShape m = has(p, "preset") ? nn::preset(get_string(p, "preset")) : nn::ModelShape{};
  auto u = [&](const char* key, std::uint64_t& field, std::int64_t hi) {
    if (has(p, key)) field = static_cast<std::uint64_t>(get_int(p, key, 1, hi));
  };
  u("vocab", m.V, 100'000'000);
  u("d_model", m.d, 1'000'000);
  u("layers", m.layers, 100'000);
  u("heads", m.heads, 100'000);
  u("kv_heads", m.kv_heads, 100'000);
  u("ffn", m.ffn, 10'000'000);
  u("context", m.context, 100'000'000);
  m.tied = get_bool_or(p, "tied", m.tied);
  if (has(p, "d_model") && !has(p, "heads") && m.d % m.heads != 0) m.heads = m.kv_heads = 1;  // keep custom d valid
  if (has(p, "d_model") && !has(p, "ffn")) m.ffn = nn::default_ffn(m.d, m.mlp);
  return nn::params_json(m, nn::count_params(m));  // the schema of lumen params --json
}

}  // namespace lumen::serve::routes
