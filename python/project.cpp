// lumen.project: a 2-D map of a table's rows (PCA, t-SNE or UMAP) and the numbers that say how far to trust it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.hpp"
#include "lumen/project/map.hpp"

namespace lumen::python {
namespace {

py::dict project(const TablePtr& table, const std::string& method, const py::object& words, std::size_t top,
                 bool cosine, double perplexity, std::size_t iterations, std::size_t neighbors, double min_dist,
                 std::size_t epochs, std::uint64_t seed, std::size_t seeds, std::size_t k, std::size_t sample,
                 const py::object& threads) {
  const Table& t = table->table;
  project::MapOptions o;
  o.method = project::parse_method(method);
  if (!words.is_none()) {
    for (const auto& w : words)
      o.rows.push_back(py::isinstance<py::int_>(w) ? w.cast<Id>() : t.vocab.require(w.cast<std::string>()));
  } else if (top != 0) {
    o.rows.resize(std::min(top, t.V()));
    for (std::size_t i = 0; i < o.rows.size(); ++i) o.rows[i] = static_cast<Id>(i);
  }
  o.cosine = cosine;
  o.perplexity = perplexity;
  o.iterations = iterations;
  o.neighbors = neighbors;
  o.min_dist = min_dist;
  o.epochs = epochs;
  o.seed = seed;
  o.seeds = seeds;
  o.k = k;
  o.sample = sample;
  o.threads = thread_count(threads);
  o.progress = [](const std::string&, std::size_t, std::size_t) { check_signals(); };
  project::Map map;
  {
    const py::gil_scoped_release nogil;
    map = project::make_map(t.E, o);
  }
  const std::size_t n = map.rows.size();
  py::array_t<float> xy({static_cast<py::ssize_t>(n), py::ssize_t{2}});
  std::copy(map.xy.begin(), map.xy.end(), xy.mutable_data());
  py::list labels;
  for (Id r : map.rows) labels.append(py::bytes(t.vocab.token(r)).attr("decode")("utf-8", "surrogateescape"));
  py::dict d;
  d["method"] = project::method_name(map.method);
  d["xy"] = xy;
  d["rows"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(n), map.rows.data());
  d["words"] = labels;
  d["variance_ratio"] = map.variance_ratio;
  d["seeds"] = map.seeds;
  d["kl"] = map.kl;
  d["perplexity"] = map.perplexity;
  d["iterations"] = map.iterations;
  d["neighbors"] = map.neighbors;
  d["min_dist"] = map.min_dist;
  d["k"] = map.k;
  d["sampled"] = map.sampled;
  d["preservation"] = map.preservation;
  d["agreement"] = map.agreement < 0 ? py::object(py::none()) : py::object(py::float_(map.agreement));
  d["seconds"] = map.seconds;
  d["describe"] = project::describe(map);
  return d;
}

}  // namespace

void register_project(py::module_& m) {
  m.def("project", &project, py::arg("table"), py::arg("method") = "pca", py::kw_only(), py::arg("words") = py::none(),
        py::arg("top") = 0, py::arg("cosine") = true, py::arg("perplexity") = 30.0, py::arg("iterations") = 1000,
        py::arg("neighbors") = 15, py::arg("min_dist") = 0.1, py::arg("epochs") = 0, py::arg("seed") = 1,
        py::arg("seeds") = 1, py::arg("k") = 10, py::arg("sample") = 5000, py::arg("threads") = py::none(), R"doc(
A 2-D map of rows of a table: method "pca", "tsne" or "umap"; the rows are `words` (words or ids), else the
first `top` rows (0: all). Returns a dict: xy (n, 2) float32, rows, words, and the honesty numbers: variance_ratio
(PCA), kl (t-SNE), preservation (share of each point's k nearest neighbours the map keeps), agreement (several
seeds), describe (the same in words). Ctrl-C stops it (KeyboardInterrupt).

Example:
    >>> m = lumen.project(lumen.load("toy"))
    >>> m["xy"].shape, m["variance_ratio"]
)doc");
}

}  // namespace lumen::python
