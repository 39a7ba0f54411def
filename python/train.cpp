// lumen.train.word2vec: a table learned from text (skip-gram or CBOW with negative sampling), with a progress
// callback; Ctrl-C stops it at a resumable point and raises KeyboardInterrupt.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/vocabulary.hpp"
#include "lumen/train/word2vec.hpp"

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
  train::Word2VecOptions o;
  o.model = train::parse_w2v_model(model);
  o.dim = dim;
  o.window = window;
  o.negative = negative;
  o.epochs = epochs;
  o.lr = lr;
  o.sample = sample;
  o.seed = seed;
  o.threads = thread_count(threads);
  o.tokenizer = {lower, split_punct};
  const std::vector<std::string> paths = paths_of(corpus_paths);
  std::atomic<bool> stop{false};
  auto pt = std::make_shared<PyTable>();
  bool done = false;
  {
    const py::gil_scoped_release nogil;
    const train::Corpus corpus = train::Corpus::open(paths);
    Vocab vocab = train::build_vocab(corpus, text::WordSplitter(o.tokenizer), {min_count, max_vocab, 0}, nullptr,
                                     [](std::uint64_t) { check_signals(); });
    train::Word2Vec w2v(corpus, std::move(vocab), o);
    train::TrainControl control;
    control.stop = &stop;
    // About ten times a second, from this thread: Ctrl-C sets the stop flag (the threads stop at the next sentence),
    // then the caller's callback sees the status.
    control.on_progress = [&](const train::TrainStatus& st) {
      const py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        PyErr_Clear();
        stop = true;
        return;
      }
      if (!progress.is_none()) {
        py::dict d;
        d["words_done"] = st.words_done;
        d["words_total"] = st.words_total;
        d["loss"] = st.loss;
        d["lr"] = st.lr;
        d["epoch"] = st.epoch;
        d["seconds"] = st.seconds;
        progress(d);
      }
    };
    done = w2v.train(control);
    if (done) pt->table = w2v.table();
  }
  if (!done) throw Interrupted{};
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
