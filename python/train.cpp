// lumen.train.word2vec, lumen.train.lm and lumen.train.gpt: tables and models learned from text, through the library's
// training session (the one `lumen train` runs), with a progress callback; Ctrl-C stops training at a resumable point
// (writing a checkpoint when the call names an output or a checkpoint) and raises KeyboardInterrupt.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings.hpp"
#include "lumen/model/gpt_session.hpp"
#include "lumen/model/gpt_session_json.hpp"
#include "lumen/train/result_json.hpp"
#include "lumen/train/session.hpp"

namespace lumen::python {
namespace {

std::string optional_path(const py::object& p) { return p.is_none() ? std::string() : path_bytes(p); }

std::vector<std::string> paths_of(const py::object& corpus) {
  std::vector<std::string> out;
  if (py::isinstance<py::str>(corpus) || py::hasattr(corpus, "__fspath__")) {
    out.push_back(path_bytes(corpus));
  } else {
    for (const auto& p : corpus) out.push_back(path_bytes(p));
  }
  return out;
}

// Where a session writes: nothing unless `output` (or `checkpoint`) is given.
train::SessionOutputs outputs_of(const py::object& output, const py::object& to, const py::object& checkpoint,
                                 const py::object& output_head = py::none()) {
  return {.table = optional_path(output),
          .format = to.is_none() ? std::string() : to.cast<std::string>(),
          .head = optional_path(output_head),
          .checkpoint = optional_path(checkpoint)};
}

// From the training thread, with the GIL released: Ctrl-C sets the stop flag (the session stops at a resumable
// point and checkpoints), then the caller's callback sees json().
template <class Json>
void report(std::atomic<bool>& stop, const py::object& progress, Json json) {
  const py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    PyErr_Clear();
    stop = true;
    return;
  }
  if (!progress.is_none()) progress(to_python(json()));
}

// Runs `run(control)` with the GIL released. About ten times a second (a GPT: every step) the caller's callback
// sees the training status (train_status_json's fields; a GPT's: gpt_step_json's); Ctrl-C before training
// raises KeyboardInterrupt at once. Returns the finished session's result; a stopped one raises KeyboardInterrupt.
template <class Control = train::SessionControl, class Run>
auto run_session(const py::object& resume, std::uint64_t checkpoint_every, const py::object& progress, Run run) {
  std::atomic<bool> stop{false};
  Control control;
  control.stop = &stop;
  control.resume = optional_path(resume);
  control.checkpoint_every = checkpoint_every;
  constexpr bool gpt = std::is_same_v<Control, model::GptSessionControl>;
  control.on_progress = [&](const train::SessionProgress& p) {
    if (p.phase != train::SessionPhase::training) return check_signals();
    if constexpr (!gpt) report(stop, progress, [&p] { return train::train_status_json(p.status); });
  };
  if constexpr (gpt)
    control.on_step = [&](const model::GptStep& s) {
      report(stop, progress, [&s] { return model::gpt_step_json(s); });
    };
  const py::gil_scoped_release nogil;
  auto r = run(control);
  if (r.status != train::SessionStatus::finished) throw Interrupted{};
  return r;
}

TablePtr table_of(Table t, const char* source) {
  auto pt = std::make_shared<PyTable>();
  pt->table = std::move(t);
  pt->table.source = source;
  return pt;
}

py::dict word2vec(const py::object& corpus_paths, const std::string& model, std::size_t dim, std::size_t window,
                  std::size_t negative, std::size_t epochs, double lr, double sample, std::uint64_t seed,
                  std::uint64_t min_count, std::size_t max_vocab, bool lower, bool split_punct,
                  const py::object& threads, const py::object& progress, const py::object& output, const py::object& to,
                  const py::object& checkpoint, std::uint64_t checkpoint_every, const py::object& resume) {
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
  const auto outputs = outputs_of(output, to, checkpoint);
  auto r = run_session(resume, checkpoint_every, progress, [&](const train::SessionControl& control) {
    return train::train_word2vec(corpus, o, outputs, control);
  });
  py::dict d = to_python(train::word2vec_result_json(r));
  d["table"] = table_of(std::move(r.table), "word2vec");
  return d;
}

py::dict lm(const py::object& corpus_paths, std::size_t context, std::size_t dim, std::size_t hidden, bool tie,
            float init_std, bool scale_sqrt_d, const std::string& optimizer, float lr, std::size_t batch,
            std::size_t epochs, double holdout, std::uint64_t max_train_tokens, std::uint64_t seed,
            std::uint64_t min_count, std::size_t max_vocab, bool lower, bool split_punct, const py::object& threads,
            const py::object& progress, const py::object& output, const py::object& output_head, const py::object& to,
            const py::object& checkpoint, std::uint64_t checkpoint_every, const py::object& resume) {
  const train::LmOptions o{.context = context,
                           .dim = dim,
                           .hidden = hidden,
                           .tie = tie,
                           .init_std = init_std,
                           .scale_sqrt_d = scale_sqrt_d,
                           .optimizer = train::parse_optimizer(optimizer),
                           .lr = lr,
                           .batch = batch,
                           .epochs = epochs,
                           .holdout = holdout,
                           .max_train_tokens = max_train_tokens,
                           .seed = seed,
                           .threads = thread_count(threads),
                           .tokenizer = {lower, split_punct}};
  const train::SessionCorpus corpus{paths_of(corpus_paths), min_count, max_vocab};
  const auto outputs = outputs_of(output, to, checkpoint, output_head);
  auto r = run_session(resume, checkpoint_every, progress, [&](const train::SessionControl& control) {
    return train::train_lm(corpus, o, outputs, control);
  });
  py::dict d = to_python(train::lm_result_json(r));
  d["table"] = table_of(std::move(r.table), "lm");
  d["head"] = r.head.V() > 0 ? py::cast(table_of(std::move(r.head), "lm (output)")) : py::none();
  return d;
}

py::dict gpt(const py::object& corpus_paths, const py::object& output, std::size_t layers, std::size_t d_model,
             std::size_t heads, std::size_t context, bool tie, const std::string& tokenizer, std::size_t max_words,
             std::size_t steps, std::size_t batch, float lr, float min_lr, std::size_t warmup, float weight_decay,
             float grad_clip, double holdout, std::size_t eval_every, std::size_t eval_batches, std::uint64_t seed,
             const py::object& threads, const py::object& progress, const py::object& checkpoint,
             std::uint64_t checkpoint_every, const py::object& resume) {
  const model::GptTrainOptions o{.layers = layers,
                                 .d_model = d_model,
                                 .heads = heads,
                                 .context = context,
                                 .tie = tie,
                                 .steps = steps,
                                 .batch = batch,
                                 .lr = lr,
                                 .min_lr = min_lr,
                                 .warmup = warmup,
                                 .weight_decay = weight_decay,
                                 .grad_clip = grad_clip,
                                 .holdout = holdout,
                                 .eval_every = eval_every,
                                 .eval_batches = eval_batches,
                                 .seed = seed,
                                 .threads = thread_count(threads),
                                 .tokenizer = tokenizer,
                                 .max_words = max_words};
  const std::vector<std::string> corpus = paths_of(corpus_paths);
  const model::GptSessionOutputs outputs{path_bytes(output), optional_path(checkpoint)};
  const auto r = run_session<model::GptSessionControl>(
      resume, checkpoint_every, progress,
      [&](const model::GptSessionControl& control) { return model::train_gpt(corpus, o, outputs, control); });
  return to_python(model::gpt_session_json(r));
}

}  // namespace

void register_train(py::module_& m) {
  m.def("word2vec", &word2vec, py::arg("corpus"), py::kw_only(), py::arg("model") = "skipgram", py::arg("dim") = 100,
        py::arg("window") = 5, py::arg("negative") = 5, py::arg("epochs") = 5, py::arg("lr") = 0.0,
        py::arg("sample") = 1e-4, py::arg("seed") = 1, py::arg("min_count") = 5, py::arg("max_vocab") = 0,
        py::arg("lower") = false, py::arg("split_punct") = false, py::arg("threads") = py::none(),
        py::arg("progress") = py::none(), py::arg("output") = py::none(), py::arg("to") = py::none(),
        py::arg("checkpoint") = py::none(), py::arg("checkpoint_every") = 0, py::arg("resume") = py::none(), R"doc(
Trains word2vec (skip-gram or CBOW with negative sampling, as word2vec.c and fastText) on text files or
directories. Returns `lumen train word2vec --json`'s dict (output, format, vocab_file, V, d, model, epochs, threads, words,
corpus_tokens, seconds, words_per_sec_per_thread, loss) plus table (E). progress: called about ten times a second with a dict (words_done,
words_total, loss, lr, epoch, seconds). Ctrl-C stops it: KeyboardInterrupt. The same options and the same
training session as `lumen train word2vec`: output (with `to`, a format name) writes the table and its counts
(OUTPUT.vocab) as the command does, and a checkpoint (OUTPUT.ckpt, or `checkpoint`) when stopped or every
`checkpoint_every` words; resume continues one (its options and vocabulary are used).

Example:
    >>> r = lumen.train.word2vec("corpus.txt", dim=50, epochs=3, progress=lambda s: print(s["loss"]))
    >>> r["table"].neighbours("king")
)doc");
  m.def("lm", &lm, py::arg("corpus"), py::kw_only(), py::arg("context") = 3, py::arg("dim") = 64,
        py::arg("hidden") = 128, py::arg("tie") = true, py::arg("init_std") = 0.05f, py::arg("scale_sqrt_d") = false,
        py::arg("optimizer") = "adam", py::arg("lr") = 0.0f, py::arg("batch") = 64, py::arg("epochs") = 1,
        py::arg("holdout") = 0.05, py::arg("max_train_tokens") = 0, py::arg("seed") = 1, py::arg("min_count") = 2,
        py::arg("max_vocab") = 0, py::arg("lower") = false, py::arg("split_punct") = false,
        py::arg("threads") = py::none(), py::arg("progress") = py::none(), py::arg("output") = py::none(),
        py::arg("output_head") = py::none(), py::arg("to") = py::none(), py::arg("checkpoint") = py::none(),
        py::arg("checkpoint_every") = 0, py::arg("resume") = py::none(), R"doc(
Trains a next-token model (Bengio et al. 2003) with a tied or untied output head, as `lumen train lm` (the same
options and training session; output, output_head, to, checkpoint, checkpoint_every and resume as there).
Returns `lumen train lm --json`'s dict (V, d, hidden, context, tied, optimizer, lr, seed, epochs: per-epoch
held-out figures, heldout_perplexity, the files written) plus table (E) and head (the untied W, else None).

Example:
    >>> r = lumen.train.lm("corpus.txt", context=3, dim=32, tie=False, epochs=2)
    >>> r["heldout_perplexity"], r["head"].d
)doc");
  const model::GptTrainOptions d;  // the defaults, as `lumen train gpt`'s
  m.def("gpt", &gpt, py::arg("corpus"), py::kw_only(), py::arg("output"), py::arg("layers") = d.layers,
        py::arg("d_model") = d.d_model, py::arg("heads") = d.heads, py::arg("context") = d.context,
        py::arg("tie") = d.tie, py::arg("tokenizer") = d.tokenizer, py::arg("max_words") = d.max_words,
        py::arg("steps") = d.steps, py::arg("batch") = d.batch, py::arg("lr") = d.lr, py::arg("min_lr") = d.min_lr,
        py::arg("warmup") = d.warmup, py::arg("weight_decay") = d.weight_decay, py::arg("grad_clip") = d.grad_clip,
        py::arg("holdout") = d.holdout, py::arg("eval_every") = d.eval_every, py::arg("eval_batches") = d.eval_batches,
        py::arg("seed") = d.seed, py::arg("threads") = py::none(), py::arg("progress") = py::none(),
        py::arg("checkpoint") = py::none(), py::arg("checkpoint_every") = 0, py::arg("resume") = py::none(), R"doc(
Trains a small GPT-2 from scratch, as `lumen train gpt` (the same options and training session), and writes it to
`output` as a Hugging Face GPT-2 directory that `lumen gpt` opens (lumen.load reads its token table from
OUTPUT/model.safetensors). tokenizer: "gpt2" (GPT-2's byte-level BPE) or "words" (the corpus's max_words most
frequent words beside the 256 bytes).
progress: called after every step with a dict (step, steps, loss, lr, grad_norm, seconds, tokens_per_second).
Ctrl-C stops it at a step, writes the checkpoint (OUTPUT.ckpt, or `checkpoint`; also every `checkpoint_every`
steps) and raises KeyboardInterrupt; resume continues one with its own options (those given here are not used).
Returns `lumen train gpt --json`'s dict (output, V, layers, d_model, heads, context, tied, tokenizer, steps,
batch, lr, seed, train_tokens, heldout_tokens, evals, heldout_loss, heldout_perplexity, seconds).

Example:
    >>> r = lumen.train.gpt("corpus.txt", output="tiny-gpt", tokenizer="words", layers=2, d_model=64, steps=200)
    >>> r["heldout_perplexity"], lumen.load(r["output"] + "/model.safetensors").V
)doc");
}

}  // namespace lumen::python
