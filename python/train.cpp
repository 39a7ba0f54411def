// lumen.train.word2vec: a table learned from text (skip-gram or CBOW with negative sampling), with a progress
// callback; Ctrl-C stops it at a resumable point and raises KeyboardInterrupt.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "lumen/train/result_json.hpp"
#include "lumen/train/session.hpp"

namespace lumen::python {
namespace {

std::vector<std::string> paths_of(const py::object& corpus) {
  const py::object fspath = py::module_::import("os").attr("fspath");
  std::vector<std::string> out;
  if (py::isinstance<py::str>(corpus) || py::hasattr(corpus, "__fspath__")) {
    out.push_back(fspath(corpus).cast<std::string>());
  } else {
    for (const auto& p : corpus) out.push_back(fspath(p).cast<std::string>());
  }
  return out;
}

TablePtr word2vec(const py::object& corpus_paths, const std::string& model, std::size_t dim, std::size_t window,
                  std::size_t negative, std::size_t epochs, double lr, double sample, std::uint64_t seed,
                  std::uint64_t min_count, std::size_t max_vocab, bool lower, bool split_punct,
                  const py::object& threads, const py::object& progress) {
  const train::Word2VecOptions o{.model = train::parse_w2v_model(model),
                                 .dim = dim,
                                 .window = window,
                                 .negative = negative,
                                 .epochs = epochs,
                                 .lr = lr,
                                 .sample = sample,
                                 .seed = seed,
                                 .threads = thread_count(threads),
                                 .tokenizer = {lower, split_punct}};
  const train::SessionCorpus corpus{paths_of(corpus_paths), min_count, max_vocab};
  std::atomic<bool> stop{false};
  train::SessionControl control;
  control.stop = &stop;
  // About ten times a second, from this thread: Ctrl-C sets the stop flag (the threads stop at the next sentence),
  // then the caller's callback sees the training status.
  control.on_progress = [&](const train::SessionProgress& p) {
    if (p.phase == train::SessionPhase::vocabulary) return check_signals();
    const py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      PyErr_Clear();
      stop = true;
      return;
    }
    if (!progress.is_none()) progress(to_python(train::train_status_json(p.status)));
  };
  auto pt = std::make_shared<PyTable>();
  {
    const py::gil_scoped_release nogil;
    auto r = train::train_word2vec(corpus, o, {}, control);
    if (r.status != train::SessionStatus::finished) throw Interrupted{};
    pt->table = std::move(r.table);
  }
  pt->table.source = "word2vec";
  return pt;
}

}  // namespace

void register_train(py::module_& m) {
  m.def("word2vec", &word2vec, py::arg("corpus"), py::kw_only(), py::arg("model") = "skipgram", py::arg("dim") = 100,
        py::arg("window") = 5, py::arg("negative") = 5, py::arg("epochs") = 5, py::arg("lr") = 0.0,
        py::arg("sample") = 1e-4, py::arg("seed") = 1, py::arg("min_count") = 5, py::arg("max_vocab") = 0,
        py::arg("lower") = false, py::arg("split_punct") = false, py::arg("threads") = py::none(),
        py::arg("progress") = py::none(), R"doc(
Trains word2vec (skip-gram or CBOW with negative sampling, as word2vec.c and fastText) on text files or
directories, returning the table E. progress: called about ten times a second with a dict (words_done,
words_total, loss, lr, epoch, seconds). Ctrl-C stops it: KeyboardInterrupt. The same options as
`lumen train word2vec`; save the result with table.save(path).

Example:
    >>> t = lumen.train.word2vec("corpus.txt", dim=50, epochs=3, progress=lambda s: print(s["loss"]))
    >>> t.neighbours("king")
)doc");
}

}  // namespace lumen::python
