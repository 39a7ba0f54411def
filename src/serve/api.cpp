#include "lumen/serve/api.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <map>
#include <thread>

#include "lumen/core/error.hpp"
#include "lumen/eval/compare.hpp"
#include "lumen/eval/compare_json.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/nn/params_json.hpp"
#include "lumen/project/map.hpp"
#include "lumen/project/toy.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/searcher.hpp"
#include "lumen/text/display.hpp"
#include "lumen/text/tokenizer.hpp"
#include "lumen/train/tokenizer.hpp"
#include "params.hpp"

namespace lumen::serve {

namespace {

// A table the API answers from, with its searcher (row norms computed once).
struct Loaded {
  std::string name;  // what requests call it
  Table table;
  std::unique_ptr<search::Searcher> searcher;
  bool tokenized = false;  // rows labelled by the tokenizer (the main table, and a further one of the same V)
  Loaded(std::string n, Table t)
      : name(std::move(n)), table(std::move(t)), searcher(std::make_unique<search::Searcher>(table)) {}
};

// A projection computed in the background; the page polls /api/job for progress. State's destructor joins the
// worker; the implicit destructor only frees memory (tidy cannot see that nlohmann::json's does not throw).
struct Job {  // NOLINT(bugprone-exception-escape)
  std::atomic<double> progress{0.0};
  std::atomic<bool> done{false};
  std::mutex mu;
  nlohmann::json result;  // guarded by mu
  std::string error;      // guarded by mu
  std::thread worker;
};

}  // namespace

struct Api::State {
  std::unique_ptr<Loaded> main, toy;
  std::vector<std::unique_ptr<Loaded>> others;  // further tables, in the order served
  std::shared_ptr<const text::Tokenizer> tokenizer;
  Limits limits;
  std::mutex jobs_mu;
  std::map<std::string, std::shared_ptr<Job>> jobs;  // key: the projection's parameters
  std::vector<std::string> job_order;                // oldest first, to bound the cache

  ~State() {
    for (auto& [k, j] : jobs)
      if (j->worker.joinable()) j->worker.join();
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

const Table& Api::table() const { return state_->main->table; }

bool Api::starts_work(const std::string& route) { return route == "projection" || route == "compare"; }

namespace {

std::vector<float> finite_row(const Table& t, std::size_t id) {
  std::vector<float> v(t.d());
  t.E.row_f32(id, v.data());
  for (float& x : v)
    if (!std::isfinite(x)) x = 0.0f;  // JSON has no NaN/Inf
  return v;
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
  train::WordTokenizer words(train::TokenizerOptions{.lower = false, .split_punct = true});
  for (const auto& w : words.tokenize(text)) {
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

// The rows a projection shows: the first `top` rows (frequency order) or the listed words.
std::vector<Id> projection_rows(const Api::State& s, const Loaded& l, const nlohmann::json& p) {
  std::vector<Id> rows;
  if (has(p, "words")) {
    for (const auto& w : get_words(p, "words", s.limits.max_map_points)) rows.push_back(s.lookup(l, w));
  } else {
    const auto top =
        static_cast<std::size_t>(get_int_or(p, "top", 1000, 2, static_cast<std::int64_t>(s.limits.max_map_points)));
    for (std::size_t i = 0; i < std::min(top, l.table.V()); ++i) rows.push_back(static_cast<Id>(i));
  }
  if (rows.size() < 2) throw ApiError(422, "a map needs at least two points");
  return rows;
}

nlohmann::json points_json(const Api::State& s, const Loaded& l, const std::vector<Id>& rows, const float* xy,
                           std::size_t stride) {
  nlohmann::json pts = nlohmann::json::array();
  for (std::size_t i = 0; i < rows.size(); ++i)
    pts.push_back({{"token", l.table.vocab.token(rows[i])},
                   {"display", s.display(l, rows[i])},
                   {"id", rows[i]},
                   {"x", xy[i * stride]},
                   {"y", xy[i * stride + 1]}});
  return pts;
}

nlohmann::json run_projection(const Api::State& s, const Loaded& l, const std::string& method,
                              const std::vector<Id>& rows, std::uint64_t seed, std::size_t seeds, Job& job) {
  const Table& t = l.table;
  if (t.d() < 2) throw ApiError(422, "the table has fewer than two dimensions");
  if (t.d() == 2) {  // already a map (the toy table): show it as it is
    std::vector<float> xy(rows.size() * 2);
    for (std::size_t i = 0; i < rows.size(); ++i) t.E.row_f32(static_cast<std::size_t>(rows[i]), &xy[2 * i]);
    return {{"method", "identity"},
            {"points", points_json(s, l, rows, xy.data(), 2)},
            {"caption", "The table is two-dimensional: this is the table itself, no projection."}};
  }
  project::MapOptions o;
  o.method = project::parse_method(method);
  o.rows = rows;
  o.seed = seed;
  o.seeds = o.method == project::Method::pca ? 1 : seeds;
  o.progress = [&job](const std::string&, std::size_t done, std::size_t total) {
    job.progress = total ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
  };
  const project::Map m = project::make_map(t.E, o);
  std::string caption;
  for (const auto& line : project::describe(m)) caption += (caption.empty() ? "" : " ") + line;
  nlohmann::json out = {
      {"method", method}, {"points", points_json(s, l, m.rows, m.xy.data(), 2)}, {"caption", caption}};
  if (!m.variance_ratio.empty()) out["explained_variance"] = m.variance_ratio;
  if (!m.kl.empty()) out["kl"] = m.kl.front();
  // The honesty numbers, as numbers (the caption says them in words): the share of each sampled point's k nearest
  // neighbours of the original space kept by each map, and, with several seeds, how much the maps agree.
  out["k"] = m.k;
  out["sampled"] = m.sampled;
  if (!m.preservation.empty()) out["knn_preservation"] = m.preservation.front();
  out["preservation"] = m.preservation;
  if (!m.seeds.empty()) out["seeds"] = m.seeds;
  if (m.agreement >= 0) out["agreement"] = m.agreement;
  if (m.method == project::Method::umap)
    out["umap"] = {
        {"neighbors", m.neighbors}, {"min_dist", m.min_dist}, {"epochs", m.iterations}, {"a", m.a}, {"b", m.b}};
  return out;
}

nlohmann::json handle_job(const std::shared_ptr<Job>& j, const std::string& id) {
  if (!j->done) return {{"job", id}, {"done", false}, {"progress", j->progress.load()}};
  std::lock_guard<std::mutex> g(j->mu);
  if (!j->error.empty()) throw ApiError(422, j->error);
  return {{"job", id}, {"done", true}, {"progress", 1.0}, {"result", j->result}};
}

// Starts the job KEY (or finds it: the same request returns the same job, so reloading the page does not start the
// work again) and answers with its state. At most 16 jobs are kept; the oldest finished one makes room.
nlohmann::json start_job(Api::State& s, const std::string& key, std::function<nlohmann::json(Job&)> work) {
  std::lock_guard<std::mutex> lock(s.jobs_mu);
  auto it = s.jobs.find(key);
  if (it == s.jobs.end()) {
    if (s.job_order.size() >= 16) {  // bound the cache: drop the oldest finished job
      for (auto o = s.job_order.begin(); o != s.job_order.end(); ++o) {
        auto& old = s.jobs[*o];
        if (old->done) {
          if (old->worker.joinable()) old->worker.join();
          s.jobs.erase(*o);
          s.job_order.erase(o);
          break;
        }
      }
      if (s.job_order.size() >= 16) throw ApiError(429, "too many jobs are running; try again soon");
    }
    auto job = std::make_shared<Job>();
    job->worker = std::thread([work = std::move(work), job] {
      nlohmann::json result;
      std::string error;
      try {
        result = work(*job);
      } catch (const lumen::Error& e) {
        error = e.message();
      } catch (const std::exception& e) {
        error = e.what();
      }
      std::lock_guard<std::mutex> g(job->mu);
      job->result = std::move(result);
      job->error = std::move(error);
      job->progress = 1.0;
      job->done = true;
    });
    it = s.jobs.emplace(key, job).first;
    s.job_order.push_back(key);
  }
  return handle_job(it->second, std::to_string(std::hash<std::string>{}(key)));
}

// Two served tables compared over their shared words (eval::compare_tables), in the background.
nlohmann::json compare(Api::State& s, const nlohmann::json& p) {
  const Loaded& a = s.named(get_string_or(p, "a", "main"));
  const Loaded& b = s.named(get_string(p, "b", 64));
  eval::CompareOptions o;
  o.k = static_cast<std::size_t>(get_int_or(p, "k", 10, 1, static_cast<std::int64_t>(s.limits.max_compare_k)));
  const auto most = static_cast<std::int64_t>(s.limits.max_compare_words);
  o.top = static_cast<std::size_t>(get_int_or(p, "top", std::min<std::int64_t>(10000, most), 2, most));
  o.moved = static_cast<std::size_t>(get_int_or(p, "moved", 10, 0, static_cast<std::int64_t>(s.limits.max_moved)));
  const std::string key = fmt::format("compare/{}/{}/{}/{}/{}", a.name, b.name, o.k, o.top, o.moved);
  return start_job(s, key, [&a, &b, o](Job& job) mutable {
    // Three stages, one bar: A's neighbours, B's neighbours, the products.
    o.progress = [&job](const std::string& stage, std::size_t done, std::size_t total) {
      const double f = total ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
      const double base = stage == "neighbours A" ? 0.0 : stage == "neighbours B" ? 0.45 : 0.9;
      job.progress = base + (stage == "products" ? 0.1 : 0.45) * f;
    };
    const eval::Comparison c = eval::compare_tables(a.table, b.table, o);
    return eval::comparison_json(c, a.table.source, b.table.source);
  });
}

}  // namespace

nlohmann::json Api::handle(const std::string& route, const nlohmann::json& p) {
  State& s = *state_;
  if (route == "info") {
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
  if (route == "tokenize") return tokenize(s, p);
  if (route == "row") return row(s, p);
  if (route == "neighbours") return neighbours(s, p);
  if (route == "similarity") return similarity(s, p);
  if (route == "analogy") return analogy(s, p);
  if (route == "params") return params(p);
  if (route == "projection") {
    // Projections run in the background (t-SNE of 50,000 points takes minutes).
    const std::string method = get_string_or(p, "method", "pca");
    (void)project::parse_method(method);  // a bad method is the request's fault (400), not the job's
    const Loaded& l = s.pick(p);
    const std::vector<Id> rows = projection_rows(s, l, p);
    const auto seed = static_cast<std::uint64_t>(get_int_or(p, "seed", 1, 0, std::numeric_limits<std::int32_t>::max()));
    const auto seeds =
        static_cast<std::size_t>(get_int_or(p, "seeds", 1, 1, static_cast<std::int64_t>(s.limits.max_seeds)));
    std::string key = fmt::format("projection/{}/{}/{}/{}/{}", l.name, method, seed, seeds, rows.size());
    for (Id id : rows) key += fmt::format(",{}", id);
    return start_job(s, key, [&s, &l, method, rows, seed, seeds](Job& job) {
      return run_projection(s, l, method, rows, seed, seeds, job);
    });
  }
  if (route == "compare") return compare(s, p);
  if (route == "job") {
    const std::string id = get_string(p, "id", 64);
    std::lock_guard<std::mutex> lock(s.jobs_mu);
    for (auto& [key, job] : s.jobs)
      if (std::to_string(std::hash<std::string>{}(key)) == id) return handle_job(job, id);
    throw ApiError(404, fmt::format("no projection job '{}'", id));
  }
  throw ApiError(404, fmt::format("unknown API route '{}'", route));
}

}  // namespace lumen::serve
