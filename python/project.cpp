// lumen.project: a 2-D map of a table's rows (PCA, t-SNE or UMAP) and the numbers that say how far to trust it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.hpp"
#include "lumen/project/map.hpp"
#include "lumen/project/map_json.hpp"
#include "lumen/project/row_selection.hpp"

namespace lumen::python {
namespace {

py::dict project(const TablePtr& table, const std::string& method, const py::object& words, std::size_t top,
                 bool cosine, double perplexity, std::size_t iterations, std::size_t neighbors, double min_dist,
                 std::size_t epochs, std::uint64_t seed, std::size_t seeds, std::size_t k, std::size_t sample,
                 const py::object& threads) {
  const Table& t = table->table;
  const project::Method m = project::parse_method(method);
  project::RowChoice choice{.top = top};
  if (!words.is_none()) {
    choice.listed = row_ids(t, words, "words");
  }
  const project::MapOptions o{.method = m,
                              .rows = project::choose_rows(t.V(), choice),
                              .cosine = cosine,
                              .perplexity = perplexity,
                              .iterations = iterations,
                              .neighbors = neighbors,
                              .min_dist = min_dist,
                              .epochs = epochs,
                              .seed = seed,
                              .seeds = seeds,
                              .k = k,
                              .sample = sample,
                              .threads = thread_count(threads),
                              .progress = [](const std::string&, std::size_t, std::size_t) { check_signals(); }};
  project::Map map;
  {
    const py::gil_scoped_release nogil;
    map = project::make_map(t.E, o);
  }
  // The keys of `lumen project --json` (project::map_summary_json), with the map itself as arrays: xy (n, 2), rows
  // and words in place of the points list.
  const std::size_t n = map.rows.size();
  py::array_t<float> xy({static_cast<py::ssize_t>(n), py::ssize_t{2}});
  std::copy(map.xy.begin(), map.xy.end(), xy.mutable_data());
  py::list labels;
  for (Id r : map.rows) labels.append(py::bytes(t.vocab.token(r)).attr("decode")("utf-8", "surrogateescape"));
  py::dict d = to_python(project::map_summary_json(map, t.source, o.cosine));
  d["points"] = n;
  d["xy"] = xy;
  d["rows"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(n), map.rows.data());
  d["words"] = labels;
  return d;
}

}  // namespace

void register_project(py::module_& m) {
  m.def("project", &project, py::arg("table"), py::arg("method") = "pca", py::kw_only(), py::arg("words") = py::none(),
        py::arg("top") = 0, py::arg("cosine") = true, py::arg("perplexity") = 30.0, py::arg("iterations") = 1000,
        py::arg("neighbors") = 15, py::arg("min_dist") = 0.1, py::arg("epochs") = 0, py::arg("seed") = 1,
        py::arg("seeds") = 1, py::arg("k") = 10, py::arg("sample") = 5000, py::arg("threads") = py::none(), R"doc(
A 2-D map of rows of a table: method "pca", "tsne", "umap" (or "identity" for a table of d = 2); the rows are `words` (words or ids; a repeat is
mapped once), else the first `top` rows (0: all), as the CLI and the explorer choose them. Returns the dict of
`lumen project --json` (method, table, points (a count), left_out (the ids of rows not mapped because they hold a
NaN or an infinity), the honesty numbers: variance_ratio (PCA), kl (t-SNE), knn_preservation (share of each point's
k nearest neighbours the map keeps), agreement (several seeds), caption (the same in words)) with the map as
arrays: xy (n, 2) float32, rows, words. Ctrl-C stops it (KeyboardInterrupt).

Example:
    >>> m = lumen.project(lumen.load("toy"))
    >>> m["xy"].shape, m["variance_ratio"]
)doc");
}

}  // namespace lumen::python
