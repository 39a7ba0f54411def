#pragma once
// Shared pieces of the Python module (`import lumen`): the table object Python holds, Ctrl-C checks, and one
// registration function per area (table, eval, project, train, nn, tokenizer), each in its own file.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/eval/probe.hpp"
#include "lumen/io/open.hpp"
#include "lumen/search/searcher.hpp"
#include "lumen/text/load_table.hpp"

namespace lumen::text {
class Tokenizer;
}

namespace lumen::python {

namespace py = pybind11;

// The C++ side of lumen.Table: the table, the tokenizer that labelled its rows (if any), and the searcher (row
// norms), made on first use. NumPy views of E keep this object alive through their base.
struct PyTable {
  Table table;
  std::shared_ptr<const text::Tokenizer> tokenizer;
  io::LoadReport report;                      // what reading the file found (Table.info())
  std::optional<text::TableRequest> request;  // how lumen.load opened it (nullopt: not from a file)
  const search::Searcher& searcher() const;   // thread-safe; computes the row norms once

 private:
  mutable std::once_flag once_;
  mutable std::unique_ptr<search::Searcher> searcher_;
};
using TablePtr = std::shared_ptr<PyTable>;

// A table text::load_table (or load_output_head) opened, as lumen.Table: its warnings said through Python's
// warnings.warn; `request` what opened it (nullopt: keep none). With the GIL held.
TablePtr loaded_table(text::LoadedTable loaded, io::LoadReport report, std::optional<text::TableRequest> request);

// Thrown from a progress callback when Python has a pending signal (Ctrl-C): the call unwinds through the library
// and the module raises KeyboardInterrupt.
struct Interrupted {};
// With the GIL released: takes it, runs the signal handlers, throws Interrupted if one raised (Ctrl-C). Only the
// main thread runs Python's handlers, so call it from the thread that made the call.
void check_signals();

// JSON (the library's result schema) as Python objects: dicts, lists, str, int, float (NaN stays NaN), None.
py::object to_python(const nlohmann::json& j);

// A path argument (str, bytes or os.PathLike) as the file system's bytes: os.fsencode, so a name that is not
// UTF-8 (a str with lone surrogates, from os.listdir) opens the file it names. A NUL byte is a ValueError, as in
// open(): the C++ side would cut the name there and open another file.
std::string path_bytes(const py::handle& p);

// A Python int as a long long; nullopt when it does not fit (2**63): the caller says which range it left.
std::optional<long long> fitting_int(const py::handle& x);

// A word as Python gives it (str, or bytes for tokens that are not UTF-8) -> the bytes lumen looks up. A str's
// lone surrogates (from surrogateescape) go back to the bytes they stood for. TypeError for anything else.
std::string word_bytes(const py::handle& w);
// A list of words or row ids -> checked row ids (lumen.UnknownWordError, lumen.InputError for an id outside
// [0, V), TypeError for a single str). `what` names the argument in the message.
std::vector<Id> row_ids(const Table& t, const py::handle& items, const char* what);

// Thread count arguments: None or 0 means lumen's default (lumen.set_threads).
std::size_t thread_count(const py::object& threads);

// The probe's options as lumen.eval.probe and lumen.probe take them (progress: Ctrl-C between fits).
eval::ProbeOptions probe_options(std::size_t folds, double C, std::size_t max_iter, double tol, std::uint64_t seed,
                                 const py::object& threads);

void register_errors(py::module_& m);
void register_table(py::module_& m);
void register_eval(py::module_& m);
void register_project(py::module_& m);
void register_train(py::module_& m);
void register_nn(py::module_& m);
void register_tokenizer(py::module_& m);
void register_params(py::module_& m);
void register_compare(py::module_& m);
void register_model(py::module_& m);

}  // namespace lumen::python
