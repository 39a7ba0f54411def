// lumen.drift: Figure 3 on a GPT-2 or Llama checkpoint (a token's vector block by block in two contexts), through
// the library's model::run_drift, the one `lumen drift` runs, returning the dict its --json prints; lumen.probe:
// probes by layer through model::run_layer_probe, the one `lumen probe --layers` runs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/drift_run.hpp"
#include "lumen/model/layer_probe.hpp"
#include "lumen/model/layer_probe_json.hpp"

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

py::object probe_of(const py::object& checkpoint, const py::object& labels, bool layers, const std::string& context,
                    const py::object& tokenizer, const py::object& output, const py::object& analogies,
                    std::size_t folds, double C, std::size_t max_iter, double tol, std::uint64_t seed,
                    const py::object& threads) {
  if (!layers)
    throw UsageError("lumen.probe reads a model layer by layer: pass layers=True (a table's rows: lumen.eval.probe)");
  const model::LayerProbeRequest r{.checkpoint = path_bytes(checkpoint),
                                   .tokenizer = tokenizer.is_none() ? std::string() : path_bytes(tokenizer),
                                   .context = context,
                                   .output = output.is_none() ? std::string() : path_bytes(output),
                                   .options = probe_options(folds, C, max_iter, tol, seed, threads)};
  const std::string spec = path_bytes(labels), bench = analogies.is_none() ? "" : path_bytes(analogies);
  nlohmann::json j;
  {
    const py::gil_scoped_release nogil;
    const eval::LabelSet set = eval::load_label_set(spec, bench);
    const model::LayerProbeRun run = model::run_layer_probe(r, set);
    j = model::layer_probe_json(run.probe, set, run.source);
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
  m.def("probe", &probe_of, py::arg("checkpoint"), py::arg("labels"), py::kw_only(), py::arg("layers") = false,
        py::arg("context") = model::kAloneContext, py::arg("tokenizer") = py::none(), py::arg("output") = py::none(),
        py::arg("analogies") = py::none(), py::arg("folds") = 5, py::arg("C") = 1.0, py::arg("max_iter") = 1000,
        py::arg("tol") = 1e-4, py::arg("seed") = 1, py::arg("threads") = py::none(), R"doc(
Probes by layer, as `lumen probe CHECKPOINT LABELS --layers`: each labelled word is read through a GPT-2 or Llama
checkpoint (a Hugging Face directory, a file in it, or a GGUF) in `context` ({} is the word; the default " {}" reads
it alone, as inside a sentence), and lumen.eval.probe's logistic regression, control task and selectivity are fitted
on every layer's state of its last token (layer 0: E's row plus the position's; layer i: after block i). `labels`
as lumen.eval.probe takes it. output: also write accuracy by layer, a .png or .svg. layers must be True (a table's
rows: lumen.eval.probe). Returns the dict `lumen probe --layers --json` prints: layers [{layer, accuracy,
control_accuracy, selectivity, ...}], best_layer, context, alone, n, multi_token, words, ...

Example:
    >>> r = lumen.probe("build/default/gpt", "gender", layers=True, analogies="questions-words.txt")
    >>> [round(l["selectivity"], 2) for l in r["layers"]], r["best_layer"]
)doc");
}

}  // namespace lumen::python
