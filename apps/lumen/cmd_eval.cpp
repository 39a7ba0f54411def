// lumen eval analogies|similarity: a table's score on the standard benchmarks, as gensim computes it.
// One table and one file: the full report. Several (tables, or --files): one comparison table.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/analogies.hpp"
#include "lumen/eval/result_json.hpp"
#include "lumen/eval/similarity.hpp"
#include "lumen/model/layer_analogies.hpp"
#include "lumen/model/layer_analogies_json.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_eval {
namespace {

struct EvalArgs {
  TableArgs table;
  std::vector<std::string> inputs;  // TABLE... FILE, or TABLE... with --files
  std::vector<std::string> files;
  std::size_t restrict = 300000;
  bool case_sensitive = false;
  bool strict = false;
  bool json = false;
  // analogies only
  std::string method = "add";
  bool no_exclude = false;
  std::size_t semantic = 5;
  bool layers = false;  // TABLE is a model: score each layer's states
  std::string context = model::kAloneContext, out;
};

// Splits the positionals into tables and benchmark files: without --files the last one is the file. With
// --files and no positional, the default table, as every command that takes a table; one positional without
// --files could be either, so it is refused with both ways to say it.
void resolve(const EvalArgs& a, std::vector<std::string>& tables, std::vector<std::string>& files) {
  tables = a.inputs;
  files = a.files;
  if (files.empty()) {
    if (tables.size() < 2)
      throw UsageError(
          "give a table and a benchmark file (TABLE FILE), or --files FILE... (the default table: `default FILE` or "
          "--files FILE alone)");
    files.push_back(tables.back());
    tables.pop_back();
  }
  if (tables.empty()) tables.emplace_back("default");
}

// A benchmark file given as "-": the whole of stdin (once).
std::string read_stdin() {
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  if (std::cin.bad()) throw IoError("<stdin>: read error");
  return text;
}

Table load(const EvalArgs& a, const std::string& path) {
  TableArgs t = a.table;
  t.path = path;
  // Rows past --restrict are never used: do not read them.
  if (a.restrict != 0 && (t.limit == 0 || t.limit > a.restrict)) t.limit = a.restrict;
  return load_table(t);
}

// Warns about skipped lines on stderr (the first few; JSON carries them all).
void warn_malformed(const std::string& path, const std::vector<eval::MalformedLine>& bad) {
  constexpr std::size_t kShow = 5;
  for (std::size_t i = 0; i < bad.size() && i < kShow; ++i)
    print_warning(fmt::format("{}:{}: {} (line skipped)", path, bad[i].line, bad[i].reason));
  if (bad.size() > kShow)
    print_warning(fmt::format("{}: {} malformed lines skipped in all (--strict to reject the file)", path, bad.size()));
}

// The benchmark files, each read once (FILE "-": stdin); skipped lines are warned about unless --json (whose
// results list them).
template <class Set>
std::vector<Set> read_benchmark_files(const EvalArgs& a, const std::vector<std::string>& files,
                                      Set (*parse)(std::string_view, const std::string&, bool),
                                      Set (*read)(const std::string&, bool)) {
  std::vector<Set> sets;
  for (const auto& f : files) {
    sets.push_back(f == "-" ? parse(read_stdin(), "<stdin>", a.strict) : read(f, a.strict));
    if (!a.json) warn_malformed(f, sets.back().malformed);
  }
  return sets;
}

// Wall time of one evaluation (loading excluded), for --json and the benchmark script.
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Every table evaluated on every benchmark file, as cells[table][file] and one JSON result per cell (with the
// evaluation's seconds). One table and one file: an InputError is the command's error. A comparison goes on past
// one: the cell is empty, and its JSON result and `errors` (in the cells' order) say why.
template <class Result>
struct EvalGrid {
  bool single = false;
  nlohmann::json results = nlohmann::json::array();
  std::vector<std::vector<std::optional<Result>>> cells;
  std::vector<std::string> errors;

  nlohmann::json json() const { return single ? results[0] : nlohmann::json{{"results", results}}; }
};

// evaluate(table, f): the result of benchmark file f on a table; to_json(t, f, result): its JSON.
template <class Result, class Evaluate, class ToJson>
EvalGrid<Result> evaluate_grid(const EvalArgs& a, const std::vector<std::string>& tables,
                               const std::vector<std::string>& files, Evaluate evaluate, ToJson to_json) {
  EvalGrid<Result> g;
  g.single = tables.size() == 1 && files.size() == 1;
  g.cells.resize(tables.size());
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const Table table = load(a, tables[t]);
    for (std::size_t f = 0; f < files.size(); ++f) {
      try {
        const auto t0 = std::chrono::steady_clock::now();
        Result r = evaluate(table, f);
        g.results.push_back(to_json(t, f, r));
        g.results.back()["seconds"] = seconds_since(t0);
        g.cells[t].emplace_back(std::move(r));
      } catch (const InputError& e) {
        if (g.single) throw;
        g.errors.emplace_back(e.message());
        g.results.push_back({{"table", tables[t]}, {"file", files[f]}, {"error", e.message()}});
        g.cells[t].emplace_back();
      }
    }
  }
  return g;
}

std::string percent(double x) { return std::isnan(x) ? std::string("-") : fmt::format("{:.2f}%", 100.0 * x); }
std::string number(double x) { return std::isnan(x) ? std::string("-") : fmt::format("{:.4f}", x); }

// ---- analogies ------------------------------------------------------------------------------------------

void print_analogy_report(const std::string& table, const std::string& file, const eval::AnalogyResult& r,
                          const eval::AnalogyOptions& o) {
  fmt::print("{} on {}: the first {} rows, {}, {}, {}\n", file, table, r.rows,
             o.case_insensitive ? "case-insensitive" : "case-sensitive",
             o.method == eval::AnalogyMethod::add ? "3CosAdd" : "3CosMul",
             o.exclude ? "inputs excluded" : "inputs NOT excluded");
  std::size_t w = 24;
  for (const auto& s : r.sections) w = std::max(w, s.name.size());
  auto row = [&](const eval::AnalogyTally& t) {
    fmt::print("{:<{}}  {:>8}  {:>8}  {:>8}  {:>9}\n", t.name, w, t.correct, t.answered, t.skipped,
               percent(t.accuracy()));
  };
  fmt::print("{:<{}}  {:>8}  {:>8}  {:>8}  {:>9}\n", "section", w, "correct", "answered", "skipped", "accuracy");
  for (const auto& s : r.sections) row(s);
  fmt::print("{}\n", std::string(w + 42, '-'));
  if (r.sections.size() > o.semantic_sections) {
    row(r.semantic);
    row(r.syntactic);
  }
  row(r.total);
  if (!o.exclude || r.top_is_input > 0)
    fmt::print("the best candidate is one of the three inputs in {} of {} answered questions ({}){}\n", r.top_is_input,
               r.total.answered, percent(static_cast<double>(r.top_is_input) / static_cast<double>(r.total.answered)),
               o.exclude ? " (excluded, as the standard evaluation does)" : "");
}

// A comparison: one row per table, one column per file (at least `min_width` wide), cell(t, f) in each.
void print_grid(const std::vector<std::string>& tables, const std::vector<std::string>& files, std::size_t min_width,
                const std::function<std::string(std::size_t, std::size_t)>& cell) {
  std::size_t w = 5;
  for (const auto& t : tables) w = std::max(w, t.size());
  std::vector<std::size_t> cw;
  fmt::print("{:<{}}", "table", w);
  for (const auto& f : files) {
    cw.push_back(std::max(f.size(), min_width));
    fmt::print("  {:>{}}", f, cw.back());
  }
  fmt::print("\n");
  for (std::size_t t = 0; t < tables.size(); ++t) {
    fmt::print("{:<{}}", tables[t], w);
    for (std::size_t f = 0; f < files.size(); ++f) fmt::print("  {:>{}}", cell(t, f), cw[f]);
    fmt::print("\n");
  }
}

void print_layers(const model::LayerAnalogiesRun& run, const std::string& file, const eval::AnalogyOptions& o) {
  const model::LayerAnalogies& a = run.analogies;
  const std::size_t n = a.vectors.layers.at(0).V();
  fmt::print(
      "{} on {}, layer by layer: {} of its {} words are one token read {}{}\n", file, run.source, n, a.words,
      a.vectors.context == model::kAloneContext ? std::string("alone") : fmt::format("in \"{}\"", a.vectors.context),
      a.multi_token.empty() ? "" : " (the others are left out, and their questions skipped)");
  fmt::print("{}, {}, {}; every layer answers from the same {} words\n",
             o.method == eval::AnalogyMethod::add ? "3CosAdd" : "3CosMul",
             o.exclude ? "inputs excluded" : "inputs NOT excluded",
             o.case_insensitive ? "case-insensitive" : "case-sensitive", n);
  const bool split = a.layers.at(0).sections.size() > o.semantic_sections;
  fmt::print("\n{:>5}  {:>8}  {:>8}  {:>9}", "layer", "correct", "answered", "accuracy");
  if (split) fmt::print("  {:>9}  {:>9}", "semantic", "syntactic");
  fmt::print("  {:>12}\n", "top is input");
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    const auto& r = a.layers[l];
    fmt::print("{:>5}  {:>8}  {:>8}  {:>9}", l, r.total.correct, r.total.answered, percent(r.total.accuracy()));
    if (split) fmt::print("  {:>9}  {:>9}", percent(r.semantic.accuracy()), percent(r.syntactic.accuracy()));
    fmt::print(
        "  {:>12}{}\n",
        percent(static_cast<double>(r.top_is_input) / static_cast<double>(std::max<std::size_t>(r.total.answered, 1))),
        l == a.best ? "  <- best" : "");
  }
  fmt::print("\nlayer 0 is E's row plus the position's (the lookup); layer i the residual stream after block i.\n");
  fmt::print("top is input: questions whose nearest word, inputs allowed, is one of the three inputs.\n");
}

int run_layer_analogies(const EvalArgs& a, const eval::AnalogyOptions& o) {
  std::vector<std::string> tables, files;
  resolve(a, tables, files);
  if (tables.size() != 1 || files.size() != 1)
    throw UsageError("--layers scores one MODEL on one FILE (lumen eval analogies MODEL FILE --layers)");
  const auto sets = read_benchmark_files(a, files, &eval::parse_analogy_set, &eval::read_analogy_set);
  StageBar bar({.unit_of = [](const std::string& stage) { return stage == "reading words" ? "words" : "rows"; }});
  model::LayerAnalogiesRequest req{.checkpoint = tables[0],
                                   .tokenizer = a.table.tokenizer == "none" ? "" : a.table.tokenizer,
                                   .context = a.context,
                                   .output = a.out,
                                   .options = o};
  req.options.progress = std::ref(bar);
  const model::LayerAnalogiesRun run = model::run_layer_analogies(req, sets[0]);
  bar.finish();
  if (a.json) print_json(model::layer_analogies_json(run.analogies, sets[0], o, run.source));
  else print_layers(run, files[0], o);
  if (!a.out.empty() && !a.json) fmt::print("wrote {}\n", a.out);
  return kOk;
}

int run_analogies(const EvalArgs& a) {
  if (a.json) Progress::set_enabled(false);
  eval::AnalogyOptions o;
  o.restrict = a.restrict;
  o.case_insensitive = !a.case_sensitive;
  o.method = eval::parse_analogy_method(a.method);
  o.exclude = !a.no_exclude;
  o.semantic_sections = a.semantic;
  if (a.layers) return run_layer_analogies(a, o);
  std::vector<std::string> tables, files;
  resolve(a, tables, files);

  const auto sets = read_benchmark_files(a, files, &eval::parse_analogy_set, &eval::read_analogy_set);
  const auto grid = evaluate_grid<eval::AnalogyResult>(
      a, tables, files,
      [&](const Table& table, std::size_t f) {
        StageBar bar({.unit = "rows"});  // finished when it goes, on an error too
        o.progress = std::ref(bar);
        auto r = eval::evaluate_analogies(table, sets[f], o);
        bar.finish();
        return r;
      },
      [&](std::size_t t, std::size_t f, const eval::AnalogyResult& r) {
        return eval::analogy_result_json(tables[t], files[f], sets[f], r, o);
      });
  if (a.json) {
    print_json(grid.json());
    return kOk;
  }
  if (grid.single) {
    print_analogy_report(tables[0], files[0], *grid.cells[0][0], o);
    return kOk;
  }
  // Comparison: one row per table, one column per file: accuracy (correct/answered).
  print_grid(tables, files, 24, [&](std::size_t t, std::size_t f) {
    const auto& r = grid.cells[t][f];
    return r ? fmt::format("{} ({}/{})", percent(r->total.accuracy()), r->total.correct, r->total.answered)
             : std::string("no questions answered");
  });
  fmt::print("accuracy (correct/answered); questions with a word outside the first {} rows are skipped\n", a.restrict);
  for (const auto& e : grid.errors) print_error(e);
  return kOk;
}

// ---- similarity -----------------------------------------------------------------------------------------

int run_similarity(const EvalArgs& a) {
  std::vector<std::string> tables, files;
  resolve(a, tables, files);
  eval::SimilarityOptions o;
  o.restrict = a.restrict;
  o.case_insensitive = !a.case_sensitive;
  const auto sets = read_benchmark_files(a, files, &eval::parse_word_pairs, &eval::read_word_pairs);
  const auto grid = evaluate_grid<eval::SimilarityResult>(
      a, tables, files, [&](const Table& table, std::size_t f) { return eval::evaluate_similarity(table, sets[f], o); },
      [&](std::size_t t, std::size_t f, const eval::SimilarityResult& r) {
        return eval::similarity_result_json(tables[t], files[f], sets[f], r, o);
      });
  if (a.json) {
    print_json(grid.json());
    return kOk;
  }
  if (grid.single) {
    const auto& r = *grid.cells[0][0];
    fmt::print("{} on {}: the first {} rows, {}\n", files[0], tables[0], r.rows,
               o.case_insensitive ? "case-insensitive" : "case-sensitive");
    fmt::print("pearson   {}\nspearman  {}\npairs     {} scored, {} with an unknown word (OOV {})\n", number(r.pearson),
               number(r.spearman), r.pairs, r.oov, percent(r.oov_ratio()));
    if (r.pairs < 2) fmt::print("(a correlation needs at least 2 pairs)\n");
    return kOk;
  }
  print_grid(tables, files, 28, [&](std::size_t t, std::size_t f) {
    const auto& r = grid.cells[t][f];
    return r ? fmt::format("{} {} oov {}", number(r->spearman), number(r->pearson), percent(r->oov_ratio()))
             : std::string("no pairs in vocabulary");
  });
  fmt::print("each cell: spearman pearson and the share of pairs with an unknown word (left out)\n");
  for (const auto& e : grid.errors) print_error(e);
  return kOk;
}

// ---- the command ----------------------------------------------------------------------------------------

void add_common(CLI::App& sub, EvalArgs& a, const char* file_kind) {
  sub.add_option("inputs", a.inputs,
                 std::string("TABLE... FILE: tables, then one ") + file_kind +
                     " (or only tables, with --files; none: the default table); FILE - reads stdin");
  sub.add_option("--files", a.files, "Benchmark files (then every positional argument is a table)");
  sub.add_option("--restrict", a.restrict,
                 "Allowed vocabulary: the first N rows (0: all); words outside it are unknown")
      ->check(at_least(0))
      ->capture_default_str();
  sub.add_flag("--case-sensitive", a.case_sensitive,
               "Compare words as written (default: upper-cased, the first casing in the table wins)");
  sub.add_flag("--strict", a.strict, "Reject a benchmark file with a malformed line (default: skip and count it)");
  add_table_options(sub, a.table, false);
  add_json_flag(sub, a.json);
}

Action setup(CLI::App& cmd) {
  auto args = std::make_shared<EvalArgs>();
  cmd.require_subcommand(1, 1);
  CLI::App* an = cmd.add_subcommand("analogies", "Accuracy on word analogies (questions-words format), as gensim");
  add_common(*an, *args, "analogy file");
  an->add_option("--method", args->method, "add (3CosAdd, the standard) or mul (3CosMul)")->capture_default_str();
  an->add_flag("--no-exclude", args->no_exclude,
               "Let the answer be one of the three input words (shows how often the nearest word is an input)");
  an->add_option("--semantic-sections", args->semantic, "The first N sections are semantic, the rest syntactic")
      ->check(at_least(0))
      ->capture_default_str();
  an->add_flag("--layers", args->layers,
               "TABLE is a model (Hugging Face directory or GGUF): score each layer's states of the one-token words");
  CLI::Option* context = an->add_option(
      "--context", args->context,
      "With --layers: the text each word is read in, {} where the word goes (default \" {}\": alone, as inside a "
      "sentence)");
  CLI::Option* output = an->add_option("-o,--output", args->out, "With --layers: write accuracy by layer as .png/.svg");
  set_example(*an, {"lumen eval analogies glove.vec questions-words.txt",
                    "lumen eval analogies a.vec b.vec --files questions-words.txt --method mul --json",
                    "lumen eval analogies build/default/gpt questions-words.txt --layers -o analogies.png"});
  CLI::App* sim = cmd.add_subcommand("similarity", "Pearson and Spearman against human similarity scores, as gensim");
  add_common(*sim, *args, "pairs file");
  set_example(*sim, {"lumen eval similarity glove.vec wordsim353.tsv",
                     "grep -v '^#' simlex999.txt | lumen eval similarity glove.vec -",
                     "lumen eval similarity a.vec b.vec --files wordsim353.tsv simlex999.txt"});
  set_example(cmd, {"lumen eval analogies glove.vec questions-words.txt",
                    "lumen eval similarity a.vec b.vec --files wordsim353.tsv simlex999.txt"});
  return [args, an, sim, context, output]() {
    if (!args->layers)
      for (const CLI::Option* o : {context, output})
        if (o->count()) throw UsageError(fmt::format("{} goes with --layers", o->get_name()));
    if (an->parsed()) return run_analogies(*args);
    if (sim->parsed()) return run_similarity(*args);
    return static_cast<int>(kUsageError);
  };
}

const Register reg("eval", "Score a table on word analogies and word similarity benchmarks (as gensim)", setup, 60);

}  // namespace
}  // namespace lumen::cli::cmd_eval
