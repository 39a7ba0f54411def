// lumen.compare: two tables over the words they share, or an untied model's input table E against its output head
// W, returning the dict `lumen compare --json` prints (eval::comparison_json).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "lumen/core/error.hpp"
#include "lumen/eval/compare.hpp"
#include "lumen/eval/compare_json.hpp"
#include "lumen/text/output_head.hpp"

namespace lumen::python {
namespace {

// The output head of `a` (text::load_output_head, as `lumen compare --heads` opens it): `head` when given, else
// found beside the file lumen.load read `a` from.
TablePtr head_of(const PyTable& a, const py::object& head) {
  if (!a.request && head.is_none())
    throw UsageError(
        "heads=True finds the output head beside the table's file, and this table was not read from one "
        "(lumen.load): give head=, or compare the two tables");
  const text::TableRequest request = a.request.value_or(text::TableRequest{});
  const std::string path = head.is_none() ? std::string() : path_bytes(head);
  io::LoadReport report;
  text::LoadedTable loaded;
  {
    const py::gil_scoped_release nogil;
    loaded = text::load_output_head(request, path, report);
  }
  return loaded_table(std::move(loaded), std::move(report), std::nullopt);
}

py::object compare_two(const TablePtr& a, const std::optional<TablePtr>& b, bool heads, const py::object& head,
                       std::size_t k, std::size_t top, const std::optional<std::size_t>& sample, std::uint64_t seed,
                       std::size_t moved, const py::object& threads) {
  if (heads && b) throw UsageError("heads=True compares one model's two tables: give one table");
  if (!heads && !head.is_none()) throw UsageError("head= goes with heads=True");
  if (!heads && !b) throw UsageError("compare needs a second table (or heads=True)");
  const TablePtr other = heads ? head_of(*a, head) : *b;
  eval::CompareOptions o;
  o.k = k;
  o.top = top;
  o.sample = sample;
  o.seed = seed;
  o.moved = moved;
  o.threads = thread_count(threads);
  o.progress = [](const std::string&, std::size_t, std::size_t) { check_signals(); };  // Ctrl-C between blocks
  nlohmann::json j;
  {
    const py::gil_scoped_release nogil;
    j = eval::comparison_json(eval::compare_tables(a->table, other->table, o), a->table.source, other->table.source);
  }
  return to_python(j);
}

}  // namespace

void register_compare(py::module_& m) {
  const eval::CompareOptions d;  // the defaults, as `lumen compare`'s
  static const std::string doc = fmt::format(R"doc(
Two tables compared over the words they share (two seeds, two trainings, tied against untied), as `lumen compare`:
neighbour overlap@k (each word's k nearest shared words in a and in b), orthogonal Procrustes (None when d
differs), linear CKA, and the `moved` words whose neighbourhoods changed most. heads=True compares a's input table E
with its output head W row by row instead (`lumen compare TABLE --heads`): head (a file) when given, else the
safetensors checkpoint's lm_head tensor or TABLE.out beside the file lumen.load read a from. top: only the first N
shared words (in a's order; 0: all). sample: compare the neighbour lists of a random N of the words (0: every word;
None: every word up to {}, else {} of them, an estimate with a standard error), drawn with seed; the neighbours are
still searched among every word, and Procrustes and CKA use every word.
Returns the dict `lumen compare --json` prints: a and b ({{source, V, d}}), shared, n (words compared), k, overlap
({{mean, median, histogram, words, sampled, stderr, seed}}), cka, non_finite, procrustes, moved, seconds. Ctrl-C
stops it (KeyboardInterrupt).

Example:
    >>> r = lumen.compare(lumen.load("seed1.vec"), lumen.load("seed2.vec"), k=10)
    >>> r["overlap"]["mean"], r["cka"]
    >>> lumen.compare(lumen.load("lm.vec"), heads=True)["procrustes"]
)doc",
                                             eval::kAutoSampleAbove, eval::kAutoSample);
  m.def("compare", &compare_two, py::arg("a").none(false), py::arg("b") = py::none(), py::kw_only(),
        py::arg("heads") = false, py::arg("head") = py::none(), py::arg("k") = d.k, py::arg("top") = d.top,
        py::arg("sample") = py::none(), py::arg("seed") = d.seed, py::arg("moved") = d.moved,
        py::arg("threads") = py::none(), doc.c_str());
}

}  // namespace lumen::python
