// The routes that start background jobs (a projection, a comparison) and the one that polls them.
#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <limits>

#include "lumen/eval/compare.hpp"
#include "lumen/eval/compare_json.hpp"
#include "lumen/project/map.hpp"
#include "lumen/project/map_json.hpp"
#include "lumen/project/row_selection.hpp"
#include "map_progress.hpp"
#include "routes.hpp"

namespace lumen::serve::routes {

namespace {

// The rows a projection shows: the listed words (a repeat once), else the first `top` rows (frequency order).
std::vector<Id> projection_rows(const Api::State& s, const Loaded& l, const nlohmann::json& p) {
  project::RowChoice choice;
  if (has(p, "words")) {
    choice.listed.emplace();
    for (const auto& w : get_words(p, "words", s.limits.max_map_points)) choice.listed->push_back(s.lookup(l, w));
  } else {
    choice.top =
        static_cast<std::size_t>(get_int_or(p, "top", 1000, 2, static_cast<std::int64_t>(s.limits.max_map_points)));
  }
  std::vector<Id> rows = project::choose_rows(l.table.V(), choice);
  if (rows.size() < 2) throw ApiError(422, "a map needs at least two points");
  return rows;
}

nlohmann::json run_projection(const Api::State& s, const Loaded& l, const std::string& method,
                              const std::vector<Id>& rows, std::uint64_t seed, std::size_t seeds,
                              std::atomic<double>& progress) {
  const Table& t = l.table;
  if (t.d() < 2) throw ApiError(422, "the table has fewer than two dimensions");
  project::MapOptions o;
  // A 2-D table (the toy) is already a map: shown as it is, whatever was asked.
  o.method = t.d() == 2 ? project::Method::identity : project::parse_method(method);
  o.rows = rows;
  o.seed = seed;
  o.seeds = o.method == project::Method::pca ? 1 : seeds;
  // One bar over every stage and seed, never running backwards (map_progress.hpp).
  o.progress = [&progress](const std::string& stage, std::size_t done, std::size_t total) {
    const double now = map_progress(stage, total ? static_cast<double>(done) / static_cast<double>(total) : 0.0);
    progress = std::max(progress.load(), now);
  };
  // The schema of `lumen project --json` (project/map_json.hpp).
  return project::map_json(project::make_map(t.E, o), t.source, o.cosine, s.names(l));
}

}  // namespace

// Projections run in the background (t-SNE of 50,000 points takes minutes).
nlohmann::json projection(Api::State& s, const nlohmann::json& p) {
  const std::string method = get_string_or(p, "method", "pca");
  (void)project::parse_method(method);  // a bad method is the request's fault (400), not the job's
  const Loaded& l = s.pick(p);
  const std::vector<Id> rows = projection_rows(s, l, p);
  const auto seed = static_cast<std::uint64_t>(get_int_or(p, "seed", 1, 0, std::numeric_limits<std::int32_t>::max()));
  const auto seeds =
      static_cast<std::size_t>(get_int_or(p, "seeds", 1, 1, static_cast<std::int64_t>(s.limits.max_seeds)));
  std::string key = fmt::format("projection/{}/{}/{}/{}/{}", l.name, method, seed, seeds, rows.size());
  for (Id id : rows) key += fmt::format(",{}", id);
  return s.jobs.start(key, [&s, &l, method, rows, seed, seeds](std::atomic<double>& progress) {
    return run_projection(s, l, method, rows, seed, seeds, progress);
  });
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
  if (has(p, "sample")) o.sample = static_cast<std::size_t>(get_int(p, "sample", 0, most));
  o.seed = static_cast<std::uint64_t>(get_int_or(p, "seed", 1, 0, std::numeric_limits<std::int32_t>::max()));
  const std::string key = fmt::format("compare/{}/{}/{}/{}/{}/{}/{}", a.name, b.name, o.k, o.top, o.moved,
                                      o.sample ? static_cast<std::int64_t>(*o.sample) : -1, o.seed);
  return s.jobs.start(key, [&a, &b, o](std::atomic<double>& progress) mutable {
    // Three stages, one bar: A's neighbours, B's neighbours, the products.
    o.progress = [&progress](const std::string& stage, std::size_t done, std::size_t total) {
      const double f = total ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
      const double base = stage == "neighbours A" ? 0.0 : stage == "neighbours B" ? 0.45 : 0.9;
      progress = base + (stage == "products" ? 0.1 : 0.45) * f;
    };
    const eval::Comparison c = eval::compare_tables(a.table, b.table, o);
    return eval::comparison_json(c, a.table.source, b.table.source);
  });
}

nlohmann::json job(Api::State& s, const nlohmann::json& p) { return s.jobs.poll(get_string(p, "id", 64)); }

}  // namespace lumen::serve::routes
