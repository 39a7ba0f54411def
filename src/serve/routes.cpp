#include "routes.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "lumen/core/dtype.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/io/table_json.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/nn/params_json.hpp"
#include "lumen/nn/shape_edit.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/result_json.hpp"
#include "lumen/text/tokens_json.hpp"
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
    nlohmann::json one = io::table_json(l->table);
    one["name"] = l->name;
    described.push_back(std::move(one));
  }
  nlohmann::json j = io::table_json(t);  // what `lumen info --json` starts from
  j["tokenizer"] = s.tokenizer ? nlohmann::json(s.tokenizer->source) : nlohmann::json(nullptr);
  j["tables"] = names;
  j["table_info"] = described;
  return j;
}

nlohmann::json tokenize(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = *s.main;
  const std::string text = get_string(p, "text", s.limits.max_text_bytes);
  if (s.tokenizer) {  // as `lumen tokenize --json` spells each text
    nlohmann::json j = text::tokenized_json(*s.tokenizer, text, s.tokenizer->encode(text), l.table.V());
    j["tokenizer"] = s.tokenizer->source;
    return j;
  }
  nlohmann::json toks = nlohmann::json::array(), ids = nlohmann::json::array();
  // A word table: split on spaces and punctuation; a word not in the vocabulary may be there lower-cased.
  text::WordSplitter words(text::WordSplitOptions{.lower = false, .split_punct = true});
  for (const auto& w : words.split_text(text)) {
    std::optional<Id> id = l.table.vocab.find(w);
    if (!id) id = l.table.vocab.find(lower_case(w));  // the corpus tokenizer's lower case: 'Привет' too
    ids.push_back(id ? nlohmann::json(*id) : nlohmann::json(nullptr));
    toks.push_back({{"text", w}, {"display", w}, {"id", ids.back()}});
  }
  return {{"text", text}, {"ids", ids}, {"tokens", toks}, {"tokenizer", "words"}};
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

// The search routes answer with the schema of the CLI's --json (search/result_json.hpp), so scripts read both alike.
nlohmann::json neighbours(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const std::string word = get_string(p, "word");
  const Id id = s.lookup(l, word);
  const auto asked = static_cast<std::size_t>(get_int_or(p, "k", 10, 1, static_cast<std::int64_t>(s.limits.max_k)));
  search::SearchOptions o;
  o.k = std::min(asked, l.table.V());  // as the CLI: clamped to the rows, and "k_requested" says so
  o.metric = search::parse_metric(get_string_or(p, "metric", "cosine"));
  o.exclude = {id};
  return search::neighbours_json(word, id, o.metric, false, o.k, asked, l.searcher->search(l.searcher->row(id), o),
                                 s.names(l));
}

nlohmann::json similarity(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const search::Metric metric = search::parse_metric(get_string_or(p, "metric", "cosine"));
  const search::QueryWord q1 = s.query(l, get_string(p, "w1")), q2 = s.query(l, get_string(p, "w2"));
  const auto& S = *l.searcher;
  return search::similarity_json(q1, q2, metric, search::similarity(S, q1, q2, metric),
                                 search::similarity_parts(S, q1, q2));
}

nlohmann::json analogy(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const std::string wa = get_string(p, "a"), wb = get_string(p, "b"), wc = get_string(p, "c");
  const Id a = s.lookup(l, wa), b = s.lookup(l, wb), c = s.lookup(l, wc);
  search::AnalogyOptions o;
  o.method = search::parse_analogy_method(get_string_or(p, "method", "add"));
  o.k = static_cast<std::size_t>(get_int_or(p, "k", 10, 1, static_cast<std::int64_t>(s.limits.max_k)));
  o.exclude_inputs = get_bool_or(p, "exclude", true);
  // "expect": the expected answer, ranked (the explorer asks where each input ranks without exclusion this way).
  const std::string expect = get_string_or(p, "expect", "");
  std::optional<Id> expected;
  if (!expect.empty()) expected = s.lookup(l, expect);
  return search::analogy_json(wa, wb, wc, o, l.table.V(), search::analogy(*l.searcher, a, b, c, o, expected), expect,
                              s.names(l));
}

nlohmann::json doesnt_match(const Api::State& s, const nlohmann::json& p) {
  const Loaded& l = s.pick(p);
  const std::vector<std::string> words = get_words(p, "words", s.limits.max_words);
  try {
    search::check_odd_one_out_count(words.size());
  } catch (const UsageError& e) {
    throw ApiError(422, e.message());  // a well-formed request that asks no question
  }
  std::vector<Id> ids;
  ids.reserve(words.size());
  for (const auto& w : words) ids.push_back(s.lookup(l, w));
  return search::doesnt_match_json(words, search::doesnt_match(*l.searcher, ids), s.names(l));
}

// The calculator: a preset (gpt2 by default) edited field by field as `lumen params` edits it (nn::edit_shape).
nlohmann::json params(const nlohmann::json& p) {
  const std::string preset = get_string_or(p, "preset", "");
  nn::ShapeEdit e;
  auto u = [&](const char* key, std::optional<std::uint64_t>& field, std::int64_t hi) {
    if (has(p, key)) field = static_cast<std::uint64_t>(get_int(p, key, 1, hi));
  };
  u("vocab", e.V, 100'000'000);
  u("d_model", e.d, 1'000'000);
  u("layers", e.layers, 100'000);
  u("heads", e.heads, 100'000);
  u("kv_heads", e.kv_heads, 100'000);
  u("ffn", e.ffn, 10'000'000);
  u("context", e.context, 100'000'000);
  if (has(p, "tied")) e.tied = get_bool_or(p, "tied", true);
  if (has(p, "biases")) e.biases = get_bool_or(p, "biases", true);
  if (has(p, "positional")) e.positional = nn::parse_positional(get_string(p, "positional", 16));
  if (has(p, "norm")) e.norm = nn::parse_norm(get_string(p, "norm", 16));
  if (has(p, "mlp")) e.mlp = nn::parse_mlp(get_string(p, "mlp", 16));
  const nn::ModelShape m = nn::edit_shape(nn::preset(preset.empty() ? "gpt2" : preset), e, preset);
  return nn::params_json(m, nn::count_params(m));  // the schema of lumen params --json
}

}  // namespace lumen::serve::routes
