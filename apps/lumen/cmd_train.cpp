// lumen train word2vec | lm: learning a table from text. Parsing, signals and printing only; the work is in
// lumen_train (include/lumen/train/).
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <optional>

#include "cmd_train_gpt.hpp"
#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/io/write.hpp"
#include "lumen/train/corpus.hpp"
#include "lumen/train/lm.hpp"
#include "lumen/train/vocabulary.hpp"
#include "lumen/train/word2vec.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_sigint(int) { g_stop.store(true); }

// SIGINT/SIGTERM set g_stop while training runs; the previous handlers come back afterwards.
struct StopOnSignal {
  using Handler = void (*)(int);
  Handler old_int, old_term;
  StopOnSignal() {
    g_stop = false;
    old_int = std::signal(SIGINT, on_sigint);
    old_term = std::signal(SIGTERM, on_sigint);
  }
  ~StopOnSignal() {
    std::signal(SIGINT, old_int);
    std::signal(SIGTERM, old_term);
  }
};

// The output format: --to, else by the output's extension, else word2vec text.
io::Format output_format(const std::string& to, const std::string& path) {
  if (!to.empty()) return io::parse_format(to);
  try {
    return io::format_from_path(path);
  } catch (const UsageError&) {
    return io::Format::word2vec_text;
  }
}

struct CorpusArgs {
  std::vector<std::string> paths;
  bool lower = false, split_punct = false;
  std::uint64_t min_count = 5;
  std::size_t max_vocab = 0;
};

void add_corpus_options(CLI::App& cmd, CorpusArgs& a, std::uint64_t min_count) {
  a.min_count = min_count;
  cmd.add_option("corpus", a.paths, "Text files or directories (UTF-8; read as a stream, in name order)");
  cmd.add_flag("--lower", a.lower, "Lower-case tokens");
  cmd.add_flag("--split-punct", a.split_punct, "Split punctuation off words (keeps don't, term-end)");
  cmd.add_option("--min-count", a.min_count, "Drop tokens seen fewer times")->capture_default_str()->check(at_least(0));
  cmd.add_option("--max-vocab", a.max_vocab, "Keep at most the N most frequent tokens (0: all)")
      ->capture_default_str()
      ->check(at_least(0));
}

std::string vocab_path_for(const std::string& out) { return out + ".vocab"; }

// ---- word2vec ---------------------------------------------------------------------------------------------

struct W2VArgs {
  CorpusArgs corpus;
  std::string output, to, model = "skipgram", checkpoint, resume, save_vocab;
  train::Word2VecOptions o;
  std::uint64_t checkpoint_every = 0;
  std::size_t threads = 0;
  bool json = false;
};

void setup_word2vec(CLI::App& cmd, W2VArgs& a) {
  add_corpus_options(cmd, a.corpus, 5);
  cmd.add_option("-o,--output", a.output,
                 "Where to write the table (format from --to or the extension; "
                 "default word2vec text)")
      ->required();
  cmd.add_option("--to", a.to, "Output format: word2vec-text, word2vec-binary, glove, safetensors, npy, projector-tsv");
  cmd.add_option("--model", a.model, "skipgram or cbow")->capture_default_str();
  cmd.add_option("--dim", a.o.dim, "Vector size d")->capture_default_str()->check(at_least(0));
  cmd.add_option("--window", a.o.window, "Maximum context window (each position draws 1..window)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--negative", a.o.negative, "Negative samples per target")->capture_default_str()->check(at_least(0));
  cmd.add_option("--epochs", a.o.epochs, "Passes over the corpus")->capture_default_str()->check(at_least(0));
  cmd.add_option("--lr", a.o.lr, "Starting learning rate, decays linearly to 0 (default: 0.025 skipgram, 0.05 cbow)");
  cmd.add_option("--sample", a.o.sample, "Subsampling threshold t for frequent words (0: off)")->capture_default_str();
  cmd.add_option("--seed", a.o.seed, "Random seed")->capture_default_str()->check(at_least(0));
  cmd.add_option("--threads", a.threads, "Training threads (0: lumen's --threads, default all cores)")
      ->check(at_least(0));
  cmd.add_option("--checkpoint", a.checkpoint, "Checkpoint file (default: OUTPUT.ckpt)");
  cmd.add_option("--checkpoint-every", a.checkpoint_every, "Write a checkpoint every N words (0: only on Ctrl-C)")
      ->check(at_least(0));
  cmd.add_option("--resume", a.resume, "Continue from a checkpoint (its options and vocabulary are used)");
  cmd.add_option("--save-vocab", a.save_vocab, "Where to write `word count` lines (default: OUTPUT.vocab)");
  add_json_flag(cmd, a.json);
  set_example(cmd,
              {"lumen train word2vec corpus.txt -o vectors.vec --dim 100 --epochs 5",
               "lumen train word2vec texts/ -o v.bin --model cbow --lower --split-punct --checkpoint-every 1000000",
               "lumen train word2vec --resume v.bin.ckpt texts/ -o v.bin"});
}

int run_word2vec(W2VArgs& a) {
  if (a.json) Progress::set_enabled(false);
  const auto format = output_format(a.to, a.output);
  const std::string ckpt = a.checkpoint.empty() ? a.output + ".ckpt" : a.checkpoint;
  StopOnSignal signals;
  std::optional<train::Corpus> corpus;
  std::optional<train::Word2Vec> model;
  train::VocabStats vstats;
  if (!a.resume.empty()) {
    if (a.corpus.paths.empty()) throw UsageError("--resume needs the corpus it was trained on");
    corpus = train::Corpus::open(a.corpus.paths);
    model.emplace(train::Word2Vec::load_checkpoint(a.resume, *corpus));
  } else {
    if (a.corpus.paths.empty()) throw UsageError("no corpus given (text files or directories)");
    corpus = train::Corpus::open(a.corpus.paths);
    a.o.model = train::parse_w2v_model(a.model);
    a.o.tokenizer = {a.corpus.lower, a.corpus.split_punct};
    a.o.threads = a.threads;
    Vocab vocab;
    {
      Progress bar("vocabulary", corpus->bytes(), "bytes");
      vocab = train::build_vocab(*corpus, train::WordTokenizer(a.o.tokenizer), {a.corpus.min_count, a.corpus.max_vocab},
                                 &vstats, [&](std::uint64_t b) { bar.update(b); });
    }
    if (g_stop) {
      fmt::print(stderr, "lumen: interrupted before training started; nothing written\n");
      return kInterrupted;
    }
    model.emplace(*corpus, std::move(vocab), a.o);
  }
  const auto& o = model->options();
  const auto before = model->status().words_done;
  train::TrainControl control;
  control.stop = &g_stop;
  control.checkpoint_every = a.checkpoint_every;
  control.on_checkpoint = [&] { model->save_checkpoint(ckpt); };
  double seconds = 0, loss = 0;
  {
    Progress bar("word2vec", model->status().words_total, "words");
    control.on_progress = [&](const train::TrainStatus& st) {
      if (st.loss > 0) loss = st.loss;
      seconds = st.seconds;
      bar.update(st.words_done, fmt::format("loss {:.4f} lr {:.5f} epoch {}/{}", loss, st.lr,
                                            std::min(st.epoch + 1, o.epochs), o.epochs));
    };
    const bool done = model->train(control);
    bar.finish();
    if (!done) {
      model->save_checkpoint(ckpt);
      fmt::print(stderr, "lumen: interrupted; checkpoint written to {} (continue with --resume {})\n", ckpt, ckpt);
      return kInterrupted;
    }
  }
  auto table = model->table();
  io::write_table(table, a.output, format);
  const std::string vpath = a.save_vocab.empty() ? vocab_path_for(a.output) : a.save_vocab;
  train::save_vocab_counts(vpath, model->vocab());
  if (a.checkpoint_every > 0 || !a.resume.empty()) std::filesystem::remove(ckpt);  // finished: no longer needed
  const auto st = model->status();
  const double words = static_cast<double>(st.words_done - before);
  const double wps = seconds > 0 ? words / seconds / static_cast<double>(o.threads) : 0.0;
  if (a.json) {
    print_json({{"output", a.output},
                {"format", io::format_name(format)},
                {"vocab_file", vpath},
                {"V", table.V()},
                {"d", table.d()},
                {"model", o.model == train::W2VModel::skipgram ? "skipgram" : "cbow"},
                {"epochs", o.epochs},
                {"threads", o.threads},
                {"words", st.words_done},
                {"corpus_tokens", vstats.tokens},
                {"seconds", seconds},
                {"words_per_sec_per_thread", wps},
                {"loss", loss}});
  } else {
    fmt::print(
        "trained {} x {} {} table: {} words in {:.1f} s ({:.0f} words/s/thread, {} threads), final loss {:.4f}\n",
        table.V(), table.d(), o.model == train::W2VModel::skipgram ? "skip-gram" : "CBOW", st.words_done, seconds, wps,
        o.threads, loss);
    fmt::print("wrote {} ({}) and {}\n", a.output, io::format_name(format), vpath);
  }
  return kOk;
}

// ---- lm ----------------------------------------------------------------------------------------------------

struct LmArgs {
  CorpusArgs corpus;
  std::string output, output_head, to, optimizer = "adam", checkpoint, resume, save_vocab;
  train::LmOptions o;
  bool no_tie = false;
  std::uint64_t checkpoint_every = 0;
  std::size_t threads = 0;
  bool json = false;
};

void setup_lm(CLI::App& cmd, LmArgs& a) {
  add_corpus_options(cmd, a.corpus, 2);
  cmd.add_option("-o,--output", a.output, "Where to write the input table E (format from --to or the extension)")
      ->required();
  cmd.add_option("--output-head", a.output_head,
                 "Untied: where to write the output table W (default: OUTPUT's name + .out)");
  cmd.add_option("--to", a.to, "Table format: word2vec-text, word2vec-binary, glove, safetensors, npy, projector-tsv");
  auto* tie = cmd.add_flag("--tie", a.o.tie, "Tie the output head to E (default)");
  cmd.add_flag("--no-tie", a.no_tie, "Give the output head its own table W (V,d)")->excludes(tie);
  cmd.add_option("--context", a.o.context, "Previous tokens the model sees (n)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--dim", a.o.dim, "Embedding width d")->capture_default_str()->check(at_least(0));
  cmd.add_option("--hidden", a.o.hidden, "Hidden width H (a projection H -> d is added when H != d)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--init-std", a.o.init_std, "E (and untied W) ~ N(0, std^2)")->capture_default_str();
  cmd.add_flag("--scale-sqrt-d", a.o.scale_sqrt_d, "Multiply looked-up rows by sqrt(d)");
  cmd.add_option("--optimizer", a.optimizer, "sgd or adam")->capture_default_str();
  cmd.add_option("--lr", a.o.lr, "Learning rate, decays linearly (default: 1e-3 adam, 0.1 sgd)");
  cmd.add_option("--batch", a.o.batch, "Examples per step")->capture_default_str()->check(at_least(0));
  cmd.add_option("--epochs", a.o.epochs, "Passes over the training part")->capture_default_str()->check(at_least(0));
  cmd.add_option("--holdout", a.o.holdout, "Fraction of the corpus (its end) held out for perplexity")
      ->capture_default_str();
  cmd.add_option("--max-tokens", a.o.max_train_tokens, "Train on at most N tokens per epoch (0: all)")
      ->check(at_least(0));
  cmd.add_option("--seed", a.o.seed, "Random seed")->capture_default_str()->check(at_least(0));
  cmd.add_option("--threads", a.threads, "BLAS threads (0: lumen's --threads)")->check(at_least(0));
  cmd.add_option("--checkpoint", a.checkpoint, "Checkpoint file (default: OUTPUT.ckpt)");
  cmd.add_option("--checkpoint-every", a.checkpoint_every, "Write a checkpoint every N tokens (0: only on Ctrl-C)")
      ->check(at_least(0));
  cmd.add_option("--resume", a.resume, "Continue from a checkpoint (its options and vocabulary are used)");
  cmd.add_option("--save-vocab", a.save_vocab, "Where to write `word count` lines (default: OUTPUT.vocab)");
  add_json_flag(cmd, a.json);
  set_example(cmd, {"lumen train lm corpus.txt -o lm.vec --context 3 --dim 64 --hidden 128 --epochs 2",
                    "lumen train lm corpus.txt -o lm.vec --no-tie --optimizer sgd --lr 0.1"});
}

nlohmann::json epoch_json(const train::LmEpoch& e) {
  return {{"epoch", e.epoch},
          {"train_loss", e.train_loss},
          {"heldout_loss", e.heldout_loss},
          {"heldout_perplexity", e.heldout_perplexity},
          {"heldout_tokens", e.heldout_tokens},
          {"seconds", e.seconds}};
}

int run_lm(LmArgs& a) {
  if (a.json) Progress::set_enabled(false);
  const auto format = output_format(a.to, a.output);
  const std::string ckpt = a.checkpoint.empty() ? a.output + ".ckpt" : a.checkpoint;
  if (a.corpus.paths.empty())
    throw UsageError(a.resume.empty() ? "no corpus given (text files or directories)"
                                      : "--resume needs the corpus it was trained on");
  StopOnSignal signals;
  const auto corpus = train::Corpus::open(a.corpus.paths);
  std::optional<train::LanguageModel> model;
  if (!a.resume.empty()) {
    model.emplace(train::LanguageModel::load_checkpoint(a.resume, corpus));
  } else {
    a.o.tie = !a.no_tie;
    a.o.optimizer = train::parse_optimizer(a.optimizer);
    a.o.tokenizer = {a.corpus.lower, a.corpus.split_punct};
    a.o.threads = a.threads;
    train::VocabOptions vo{a.corpus.min_count, a.corpus.max_vocab,
                           train::LanguageModel::train_end(corpus, a.o.holdout)};
    Vocab words;
    {
      Progress bar("vocabulary", vo.end_byte, "bytes");
      words = train::build_vocab(corpus, train::WordTokenizer(a.o.tokenizer), vo, nullptr,
                                 [&](std::uint64_t b) { bar.update(b); });
    }
    model.emplace(corpus, words, a.o);
  }
  const auto& o = model->options();
  train::TrainControl control;
  control.stop = &g_stop;
  control.checkpoint_every = a.checkpoint_every;
  control.on_checkpoint = [&] { model->save_checkpoint(ckpt); };
  double loss = 0;
  bool done;
  {
    Progress bar("lm", model->status().words_total, "tokens");
    control.on_progress = [&](const train::TrainStatus& st) {
      loss = st.loss;
      bar.update(st.words_done, fmt::format("loss {:.3f} lr {:.2e} epoch {}/{}", loss, st.lr,
                                            std::min(st.epoch + 1, o.epochs), o.epochs));
    };
    done = model->train(control, [&](const train::LmEpoch& e) {
      if (a.json) return;
      bar.finish();
      fmt::print(
          "epoch {}: train loss {:.4f}, held-out loss {:.4f}, perplexity {:.2f} ({} held-out tokens, {:.1f} s)\n",
          e.epoch, e.train_loss, e.heldout_loss, e.heldout_perplexity, e.heldout_tokens, e.seconds);
      std::fflush(stdout);
    });
  }
  if (!done) {
    model->save_checkpoint(ckpt);
    fmt::print(stderr, "lumen: interrupted; checkpoint written to {} (continue with --resume {})\n", ckpt, ckpt);
    return kInterrupted;
  }
  io::write_table(model->input_table(), a.output, format);
  std::string head_path;
  if (!o.tie) {
    head_path = a.output_head.empty() ? a.output + ".out" : a.output_head;
    io::write_table(model->output_table(), head_path,
                    output_format(a.to, head_path == a.output + ".out" ? a.output : head_path));
  }
  const std::string vpath = a.save_vocab.empty() ? vocab_path_for(a.output) : a.save_vocab;
  train::save_vocab_counts(vpath, model->vocab());
  if (a.checkpoint_every > 0 || !a.resume.empty()) std::filesystem::remove(ckpt);
  const auto& h = model->history();
  if (a.json) {
    nlohmann::json epochs = nlohmann::json::array();
    for (auto& e : h) epochs.push_back(epoch_json(e));
    print_json({{"output", a.output},
                {"output_head", head_path.empty() ? nlohmann::json() : nlohmann::json(head_path)},
                {"vocab_file", vpath},
                {"V", model->vocab().size()},
                {"d", o.dim},
                {"hidden", o.hidden},
                {"context", o.context},
                {"tied", o.tie},
                {"optimizer", train::optimizer_name(o.optimizer)},
                {"lr", o.lr},
                {"seed", o.seed},
                {"epochs", epochs},
                {"heldout_perplexity", h.empty() ? nlohmann::json() : nlohmann::json(h.back().heldout_perplexity)}});
  } else {
    fmt::print("wrote {} ({} x {}, {}){}{} and {}\n", a.output, model->vocab().size(), o.dim, io::format_name(format),
               o.tie ? ", tied" : ", untied: output table ", head_path, vpath);
  }
  return kOk;
}

Action setup(CLI::App& cmd) {
  cmd.require_subcommand(1, 1);
  auto w = std::make_shared<W2VArgs>();
  auto* w2v = cmd.add_subcommand("word2vec", "Skip-gram / CBOW with negative sampling (word2vec, fastText)");
  setup_word2vec(*w2v, *w);
  auto l = std::make_shared<LmArgs>();
  auto* lm = cmd.add_subcommand("lm", "A next-token model (Bengio et al. 2003) with a tied or untied output head");
  setup_lm(*lm, *l);
  auto* gpt = cmd.add_subcommand("gpt", "A small GPT-2 from scratch, written as a Hugging Face GPT-2 directory");
  const Action run_gpt = setup_train_gpt(*gpt);
  set_example(cmd, {"lumen train word2vec corpus.txt -o vectors.vec", "lumen train lm corpus.txt -o lm.vec --tie"});
  return [w, w2v, l, lm, gpt, run_gpt]() -> int {
    if (w2v->parsed()) return run_word2vec(*w);
    if (lm->parsed()) return run_lm(*l);
    if (gpt->parsed()) return run_gpt();
    throw UsageError("train: give a trainer (word2vec or lm)");
  };
}

const Register reg("train",
                   "Learn a table from text: word2vec (skip-gram, CBOW) or a next-token model (tied or untied)", setup,
                   60);

}  // namespace
}  // namespace lumen::cli
