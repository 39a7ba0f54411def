// lumen project TABLE --method pca|tsne|umap|identity -o OUT: a two-dimensional map of some rows, as CSV, JSON, SVG or
// PNG (chosen by OUT's extension), with the numbers that say how far to trust it: the variance PCA's axes hold, t-SNE's
// KL, how many of each point's 10 nearest neighbours the map keeps and, with --seeds K, how much t-SNE maps made with
// different seeds agree. Without -o the coordinates go to stdout (CSV, or JSON).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/project/map.hpp"
#include "lumen/project/map_json.hpp"
#include "lumen/project/plot.hpp"
#include "lumen/project/row_selection.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_project {
namespace {

struct ProjectArgs {
  TableArgs table;
  std::string method = "pca";
  std::size_t top = 0;
  std::string words_file;
  std::string highlight;
  std::string out;
  std::uint64_t seed = 1;
  std::size_t seeds = 1;
  double perplexity = 30.0;
  std::size_t iterations = 1000;
  std::size_t neighbors = 15;
  std::string knn = "auto";
  double min_dist = 0.1;
  double theta = 0.5;
  std::string metric = "cosine";
  std::string init = "pca";
  std::size_t labels = 250;
  std::size_t sample = 5000;
  int width = 1400, height = 1050;
  std::string title;
  bool json = false;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::vector<std::string> read_words(const std::string& path) {
  std::vector<std::string> out;
  if (path == "-") return stdin_lines();
  require_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("cannot open the words file '{}'", path));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!trim(line).empty()) out.push_back(line);
  }
  return out;
}

std::string csv_field(const std::string& s) {
  const bool quote =
      s.find_first_of(",\"\n\r") != std::string::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string extension(const std::string& path) { return ascii_lower(std::filesystem::path(path).extension().string()); }

// The command's options, into a.
void add_options(CLI::App& cmd, ProjectArgs& a) {
  add_table_options(cmd, a.table);
  cmd.add_option("--method", a.method,
                 "pca (linear, deterministic), tsne or umap (clusters; sizes and distances mean nothing), or "
                 "identity (a table of d = 2 as it is)")
      ->capture_default_str();
  cmd.add_option("--top", a.top, "Map only the first N rows (the most frequent words of a sorted table; 0: all)")
      ->check(at_least(0));
  cmd.add_option("--words", a.words_file, "Map only the words in FILE, one per line ('-': stdin)");
  cmd.add_option("--highlight", a.highlight, "Words to mark and always label: w1,w2,... (added to the map if missing)");
  cmd.add_option("-o,--output", a.out,
                 "OUT.csv (token,x,y), OUT.json, OUT.svg or OUT.png (none: CSV or JSON on stdout)");
  cmd.add_option("--seed", a.seed, "t-SNE, UMAP: seed of the first map")->capture_default_str()->check(at_least(0));
  cmd.add_option("--seeds", a.seeds, "t-SNE, UMAP: make K maps (seeds S..S+K-1) and report how much they agree")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd.add_option("--perplexity", a.perplexity, "t-SNE: effective number of neighbours (k = 3 x perplexity)")
      ->capture_default_str()
      ->check(greater_than(0));
  cmd.add_option("--iterations", a.iterations, "t-SNE: optimisation steps (the first 250 with early exaggeration)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--neighbors", a.neighbors, "UMAP: neighbours per point, itself included (as umap-learn)")
      ->capture_default_str()
      ->check(CLI::Range(2, 100000));
  cmd.add_option("--knn", a.knn,
                 "UMAP's kNN graph: exact (all pairs), hnsw (lumen's HNSW index, approximate, fast on large "
                 "tables), or auto (exact up to 20,000 points)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "exact", "hnsw"}));
  cmd.add_option("--min-dist", a.min_dist, "UMAP: how tightly points may pack (0 to 1)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--theta", a.theta, "t-SNE: Barnes-Hut opening angle (0: exact gradient)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--metric", a.metric, "Neighbours in the table by cosine or euclidean")->capture_default_str();
  cmd.add_option("--init", a.init, "t-SNE start: pca (stable across seeds) or random (as the Embedding Projector)")
      ->capture_default_str();
  cmd.add_option("--sample", a.sample, "Honesty numbers over a seeded sample of at most N points (0: skip them)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--labels", a.labels,
                 "Pictures: label at most N words besides the highlighted ones (most frequent first)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--width", a.width, "Picture width (pixels or points)")
      ->capture_default_str()
      ->check(CLI::Range(200, 20000));
  cmd.add_option("--height", a.height, "Picture height")->capture_default_str()->check(CLI::Range(200, 20000));
  cmd.add_option("--title", a.title, "Picture title (default: method and table)");
  add_json_flag(cmd, a.json);
  set_example(cmd,
              {"lumen project toy --method pca -o toy.png",
               "lumen project glove.txt --method tsne --top 5000 --highlight king,queen,paris --seeds 3 -o map.svg",
               "lumen project gpt2.safetensors --method tsne --seed 7 -o gpt2.csv --json",
               "lumen project glove.txt --method umap --top 5000 --neighbors 15 --min-dist 0.1 --seeds 3 -o map.png"});
}

// The choices that need no table: the method, and the output format from OUT's extension ("" for stdout).
std::string check_args(const ProjectArgs& a, project::Method method) {
  if (a.metric != "cosine" && a.metric != "euclidean")
    throw UsageError(fmt::format("unknown metric '{}' (cosine or euclidean)", a.metric));
  if (a.init != "pca" && a.init != "random")
    throw UsageError(fmt::format("unknown --init '{}' (pca or random)", a.init));
  if (a.top != 0 && !a.words_file.empty()) throw UsageError("--top and --words choose the rows two ways: give one");
  if ((method == project::Method::pca || method == project::Method::identity) && a.seeds > 1)
    throw UsageError("--seeds goes with --method tsne or umap (PCA and identity have no seed)");
  if (a.out.empty()) return "";
  std::string ext = extension(a.out);
  if (ext != ".csv" && ext != ".json" && ext != ".svg" && ext != ".png")
    throw UsageError(fmt::format("cannot tell the output format from '{}': use .csv, .json, .svg or .png", a.out));
  return ext;
}

// The rows: --words, --top or all; highlighted words are added if missing.
project::RowChoice row_choice(const ProjectArgs& a, const Table& t) {
  project::RowChoice choice;
  choice.top = a.top;
  if (!a.words_file.empty()) {
    choice.listed.emplace();
    for (const auto& w : read_words(a.words_file)) choice.listed->push_back(project::find_listed_word(t.vocab, w));
  }
  std::stringstream hs(a.highlight);
  for (std::string w; std::getline(hs, w, ',');)
    if (!trim(w).empty()) choice.highlight.push_back(project::find_listed_word(t.vocab, w));
  return choice;
}

project::MapOptions map_options(const ProjectArgs& a, project::Method method, std::vector<Id> rows) {
  project::MapOptions o;
  o.method = method;
  o.rows = std::move(rows);
  o.cosine = a.metric == "cosine";
  o.perplexity = a.perplexity;
  o.neighbors = a.neighbors;
  o.min_dist = a.min_dist;
  o.knn = a.knn;
  o.iterations = a.iterations;
  o.theta = a.theta;
  o.random_init = a.init == "random";
  o.seed = a.seed;
  o.seeds = a.seeds;
  o.sample = a.sample;
  return o;
}

void note_left_out(const project::Map& m, const Table& t) {
  if (m.left_out.empty()) return;
  std::string named;
  for (std::size_t i = 0; i < std::min<std::size_t>(5, m.left_out.size()); ++i)
    named += (i ? ", " : "") + t.vocab.token(m.left_out[i]);
  fmt::print(stderr, "note: {} not mapped, a NaN or an infinity in {}: {}{}\n",
             m.left_out.size() == 1 ? "1 word" : fmt::format("{} words", m.left_out.size()),
             m.left_out.size() == 1 ? "its row" : "their rows", named, m.left_out.size() > 5 ? ", …" : "");
}

std::string map_csv(const project::Map& m, const Table& t) {
  std::string csv = "token,x,y\n";
  for (std::size_t i = 0; i < m.rows.size(); ++i)
    csv += fmt::format("{},{},{}\n", csv_field(t.vocab.token(m.rows[i])), m.xy[2 * i], m.xy[2 * i + 1]);
  return csv;
}

const char* method_title(project::Method method) {
  switch (method) {
    case project::Method::pca: return "PCA";
    case project::Method::umap: return "UMAP";
    case project::Method::identity: return "A map";
    case project::Method::tsne: return "t-SNE";
  }
  return "A map";
}

// The picture: the points, the highlighted ones marked, the most frequent words labelled first.
std::string render_picture(const ProjectArgs& a, const std::string& ext, const project::Map& m, const Table& t,
                           const std::vector<std::uint8_t>& hl, const std::vector<std::string>& caption) {
  project::PlotData d;
  d.xy = m.xy;
  d.highlight = hl;
  for (Id id : m.rows) d.labels.push_back(t.vocab.token(id));
  d.priority = project::label_priority(t.vocab, m.rows);
  project::PlotOptions po;
  po.title = !a.title.empty() ? a.title
                              : fmt::format("{} of {} ({} words)", method_title(m.method),
                                            std::filesystem::path(t.source).filename().string(), m.rows.size());
  po.caption = caption;
  po.width = a.width;
  po.height = a.height;
  po.max_labels = a.labels;
  return project::render_plot(d, po, ext == ".svg" ? project::PlotFormat::svg : project::PlotFormat::png);
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<ProjectArgs>();
  add_options(cmd, *a);
  return [a]() {
    const project::Method method = project::parse_method(a->method);
    const std::string ext = check_args(*a, method);
    if (a->json) Progress::set_enabled(false);
    io::LoadReport report;
    std::shared_ptr<const text::Tokenizer> tokenizer;
    const Table t = load_table(a->table, report, tokenizer);
    if (!a->out.empty()) {  // before the (maybe long) map: the picture never goes over what it is made from
      std::vector<std::string> inputs = table_input_files(a->table, t, tokenizer != nullptr);
      if (!a->words_file.empty() && a->words_file != "-") inputs.push_back(a->words_file);
      check_outputs_apart(inputs, {a->out});
    }
    const project::RowChoice choice = row_choice(*a, t);
    project::MapOptions o = map_options(*a, method, project::choose_rows(t.V(), choice));
    StageBar bar({.unit_of = [](const std::string& stage) {
      return stage.find("optimise") != std::string::npos ? "iterations" : "";
    }});
    o.progress = std::ref(bar);
    const project::Map m = project::make_map(t.E, o);
    bar.finish();
    if (!a->json) note_left_out(m, t);

    const std::vector<std::uint8_t> hl = project::highlight_mask(m.rows, choice.highlight);
    const std::vector<std::string> caption = project::describe(m);
    if (ext == ".csv") {
      write_file_atomic(a->out, map_csv(m, t));
    } else if (ext == ".json") {
      nlohmann::json j = project::map_json(m, t.source, o.cosine, RowNames{t.vocab, {}}, hl);
      j["output"] = a->out;
      write_file_atomic(a->out, j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    } else if (ext == ".svg" || ext == ".png") {
      write_file_atomic(a->out, render_picture(*a, ext, m, t, hl, caption));
    }

    if (a->json) {
      nlohmann::json j = a->out.empty() ? project::map_json(m, t.source, o.cosine, RowNames{t.vocab, {}}, hl)
                                        : project::map_summary_json(m, t.source, o.cosine);
      if (!a->out.empty()) j["output"] = a->out;
      print_json(j);
    } else if (a->out.empty()) {
      std::cout << map_csv(m, t);
      for (const auto& l : caption) fmt::print(stderr, "{}\n", l);
    } else {
      for (const auto& l : caption) fmt::print("{}\n", l);
      fmt::print("wrote {} ({} points, {:.2f} s)\n", a->out, m.rows.size(), m.seconds);
    }
    return kOk;
  };
}

const Register reg("project",
                   "Maps of a table: PCA or t-SNE as CSV, JSON, SVG or PNG, with the numbers to trust them by", setup,
                   60);

}  // namespace
}  // namespace lumen::cli::cmd_project
