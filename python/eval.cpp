// lumen.eval: the analogy and word-similarity benchmarks and the linear probe, returning the fields that
// `lumen eval ... --json` and `lumen probe --json` print.
#include <pybind11/pybind11.h>

#include <chrono>

#include "bindings.hpp"
#include "lumen/eval/analogies.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/eval/probe.hpp"
#include "lumen/eval/probe_json.hpp"
#include "lumen/eval/result_json.hpp"
#include "lumen/eval/similarity.hpp"

namespace lumen::python {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Reads a benchmark file and scores the table on it, without the GIL: the fields `lumen eval ... --json` prints,
// with the evaluation's seconds (reading the file excluded, as there).
template <class Set, class Result, class Options>
py::object score(const TablePtr& table, const py::object& path, bool strict, const Options& o,
                 Set (*read)(const std::string&, bool), Result (*evaluate)(const Table&, const Set&, const Options&),
                 nlohmann::json (*to_json)(const std::string&, const std::string&, const Set&, const Result&,
                                           const Options&)) {
  const std::string file = path_bytes(path);
  nlohmann::json j;
  {
    const py::gil_scoped_release nogil;
    const Set set = read(file, strict);
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = evaluate(table->table, set, o);
    j = to_json(table->table.source, file, set, r, o);
    j["seconds"] = seconds_since(t0);
  }
  return to_python(j);
}

py::object analogies(const TablePtr& table, const py::object& path, std::size_t restrict, bool case_sensitive,
                     const std::string& method, bool exclude, std::size_t semantic, bool strict,
                     const py::object& threads) {
  eval::AnalogyOptions o;
  o.restrict = restrict;
  o.case_insensitive = !case_sensitive;
  o.method = eval::parse_analogy_method(method);
  o.exclude = exclude;
  o.semantic_sections = semantic;
  o.threads = thread_count(threads);
  o.progress = [](const std::string&, std::uint64_t, std::uint64_t) {
    check_signals();
  };  // Ctrl-C between blocks of rows
  return score(table, path, strict, o, &eval::read_analogy_set, &eval::evaluate_analogies, &eval::analogy_result_json);
}

py::object similarity(const TablePtr& table, const py::object& path, std::size_t restrict, bool case_sensitive,
                      bool strict) {
  eval::SimilarityOptions o;
  o.restrict = restrict;
  o.case_insensitive = !case_sensitive;
  return score(table, path, strict, o, &eval::read_word_pairs, &eval::evaluate_similarity,
               &eval::similarity_result_json);
}

}  // namespace

eval::ProbeOptions probe_options(std::size_t folds, double C, std::size_t max_iter, double tol, std::uint64_t seed,
                                 const py::object& threads) {
  eval::ProbeOptions o;
  o.folds = folds;
  o.logistic.C = C;
  o.logistic.max_iter = max_iter;
  o.logistic.tol = tol;
  o.logistic.threads = thread_count(threads);
  o.seed = seed;
  o.progress = [](const std::string&, std::size_t, std::size_t) { check_signals(); };  // Ctrl-C between fits
  return o;
}

namespace {

py::object probe(const TablePtr& table, const py::object& labels, const py::object& analogies, std::size_t folds,
                 double C, std::size_t max_iter, double tol, std::uint64_t seed, const py::object& threads) {
  const eval::ProbeOptions o = probe_options(folds, C, max_iter, tol, seed, threads);
  const std::string spec = path_bytes(labels), bench = analogies.is_none() ? "" : path_bytes(analogies);
  nlohmann::json j;
  {
    const py::gil_scoped_release nogil;
    const eval::LabelSet set = eval::load_label_set(spec, bench);
    j = eval::probe_json(eval::run_probe(table->table, set, o), set, table->table.source);
  }
  return to_python(j);
}

}  // namespace

void register_eval(py::module_& m) {
  m.def("analogies", &analogies, py::arg("table"), py::arg("path"), py::kw_only(), py::arg("restrict") = 300000,
        py::arg("case_sensitive") = false, py::arg("method") = "add", py::arg("exclude") = true,
        py::arg("semantic") = 5, py::arg("strict") = false, py::arg("threads") = py::none(), R"doc(
Scores a table on an analogy file (questions-words.txt) as gensim's evaluate_word_analogies does: the first
`restrict` rows (0: all), case-insensitive, the three inputs excluded. Returns the dict `lumen eval analogies --json`
prints: accuracy, correct, answered, skipped, questions, sections, semantic, syntactic, top_is_input, malformed,
seconds, ... Ctrl-C stops it (KeyboardInterrupt).

Example:
    >>> r = lumen.eval.analogies(table, "questions-words.txt")
    >>> r["accuracy"], r["answered"]
)doc");
  m.def("probe", &probe, py::arg("table"), py::arg("labels"), py::kw_only(), py::arg("analogies") = py::none(),
        py::arg("folds") = 5, py::arg("C") = 1.0, py::arg("max_iter") = 1000, py::arg("tol") = 1e-4,
        py::arg("seed") = 1, py::arg("threads") = py::none(), R"doc(
A linear probe: can a logistic regression read `labels` off the table's rows? `labels` is a file of word<TAB>label
lines, or a built-in set (capitals, plural, gender) made from the analogy benchmark at `analogies`. Cross-validated
by word, against the majority baseline and a control task with shuffled labels. Returns the dict `lumen probe --json`
prints: accuracy, control_accuracy, selectivity, majority, classes, n, missing, words, ... Ctrl-C stops it.

Example:
    >>> r = lumen.eval.probe(table, "gender", analogies="questions-words.txt")
    >>> r["accuracy"], r["selectivity"]
)doc");
  m.def("similarity", &similarity, py::arg("table"), py::arg("path"), py::kw_only(), py::arg("restrict") = 300000,
        py::arg("case_sensitive") = false, py::arg("strict") = false, R"doc(
Scores a table on a word-similarity file (wordsim353.tsv, simlex999.txt) as gensim's evaluate_word_pairs does.
Returns the dict `lumen eval similarity --json` prints: pearson, spearman, pairs, oov, oov_ratio, oov_percent,
restrict, malformed, seconds, ...

Example:
    >>> lumen.eval.similarity(table, "wordsim353.tsv")["spearman"]
)doc");
}

}  // namespace lumen::python
