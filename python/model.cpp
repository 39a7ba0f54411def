// lumen.drift: Figure 3 on a GPT-2 or Llama checkpoint (a token's vector block by block in two contexts), through
// the library's model::run_drift, the one `lumen drift` runs, returning the dict its --json prints.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/drift_run.hpp"

namespace lumen::python {
namespace {

py::object drift_of(const py::object& checkpoint, const std::string& token, const std::vector<std::string>& contexts,
                    std::size_t k, const py::object& tokenizer, const py::object& output, const py::object& threads) {
  const model::DriftRequest r{.checkpoint = path_bytes(checkpoint),
                              .tokenizer = tokenizer.is_none() ? std::string() : path_bytes(tokenizer),
                              .token = token,
                              .contexts = contexts,
                              .k = k,
                              .output = output.is_none() ? std::string() : path_bytes(output),
                              .threads = thread_count(threads)};
  nlohmann::json j;
  {
    const py::gil_scoped_release nogil;
    const model::DriftRun run = model::run_drift(r);
    j = model::drift_json(run.drift, *run.tokenizer);
  }
  return to_python(j);
}

}  // namespace

void register_model(py::module_& m) {
  const model::DriftRequest d;  // the defaults, as `lumen drift`'s
  m.def("drift", &drift_of, py::arg("checkpoint"), py::arg("token"), py::arg("contexts"), py::kw_only(),
        py::arg("k") = d.k, py::arg("tokenizer") = py::none(), py::arg("output") = py::none(),
        py::arg("threads") = py::none(), R"doc(
Figure 3, as `lumen drift`: the vector of `token` (" bank", "␣bank", "Ġbank" or a bare word) block by block in two
contexts (a list of two texts that both hold it) through a Hugging Face GPT-2 or Llama checkpoint (its directory, or
a file in it): per layer the cosine between the two occurrences, each one's k nearest rows of E and its logit-lens
top tokens (a k above V gives all V). tokenizer: a tokenizer.json or encoder.json (default: the one beside the
checkpoint). output: also write the picture (PCA trajectories and cosine by layer), a .png or .svg file.
Returns the dict `lumen drift --json` prints: token, contexts [{text, ids, position, id}], layers [{layer, cosine,
contexts [{nearest, lens}]}], layer0 {learned_positions, position_term_norm, token_row_norm, same_token},
pca_variance_ratio, pca_xy.

Example:
    >>> r = lumen.drift("models/gpt2", "bank", ["the river bank was muddy", "the bank approved the loan"])
    >>> [l["cosine"] for l in r["layers"]]
)doc");
}

}  // namespace lumen::python
