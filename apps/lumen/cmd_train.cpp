// lumen train word2vec | lm: learning a table from text. Parsing, signals, the progress bar and printing only; the
// session (counting, training, checkpoints, outputs) is the library's: lumen/train/session.hpp.
#include <atomic>
#include <fmt/format.h>

#include "cmd_train_gpt.hpp"
#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/train/result_json.hpp"
#include "lumen/train/session.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "session_bars.hpp"
#include "stop_on_signal.hpp"

namespace lumen::cli::cmd_train {
namespace {

// What every trainer takes: the corpus, the outputs, checkpoints and resuming.
struct SessionArgs {
  train::SessionCorpus corpus;
  bool lower = false, split_punct = false;
  train::SessionOutputs out;
  std::string resume;
  std::uint64_t checkpoint_every = 0;
  std::size_t threads = 0;
  bool json = false;
};

// `unit`: what --checkpoint-every counts; `output`: what -o receives.
void add_session_options(CLI::App& cmd, SessionArgs& a, std::uint64_t min_count, const std::string& unit,
                         const std::string& output) {
  a.corpus.min_count = min_count;
  cmd.add_option("corpus", a.corpus.paths, "Text files or directories (UTF-8; read as a stream, in name order)");
  cmd.add_flag("--lower", a.lower, "Lower-case tokens");
  cmd.add_flag("--split-punct", a.split_punct, "Split punctuation off words (keeps don't, term-end)");
  cmd.add_option("--min-count", a.corpus.min_count, "Drop tokens seen fewer times")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--max-vocab", a.corpus.max_vocab, "Keep at most the N most frequent tokens (0: all)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("-o,--output", a.out.table, output)->required();
  cmd.add_option("--to", a.out.format,
                 "Output format: word2vec-text, word2vec-binary, glove, safetensors, npy, projector-tsv");
  cmd.add_option("--checkpoint", a.out.checkpoint, "Checkpoint file (default: OUTPUT.ckpt)");
  cmd.add_option("--checkpoint-every", a.checkpoint_every,
                 fmt::format("Write a checkpoint every N {} (0: only on Ctrl-C)", unit))
      ->check(at_least(0));
  cmd.add_option("--resume", a.resume, "Continue from a checkpoint (its options and vocabulary are used)");
  cmd.add_option("--save-vocab", a.out.vocab, "Where to write `word count` lines (default: OUTPUT.vocab)");
  add_json_flag(cmd, a.json);
}

// The session's control: the signal's stop flag, the bars, resuming and checkpoints.
train::SessionControl session_control(const SessionArgs& a, SessionBars& bars, const StopOnSignal& signals) {
  train::SessionControl c;
  c.stop = signals.flag();
  c.resume = a.resume;
  c.checkpoint_every = a.checkpoint_every;
  c.on_progress = [&bars](const train::SessionProgress& p) { bars.update(p); };
  return c;
}

// ---- word2vec ---------------------------------------------------------------------------------------------

struct W2VArgs {
  SessionArgs s;
  std::string model = "skipgram";
  train::Word2VecOptions o;
};

void setup_word2vec(CLI::App& cmd, W2VArgs& a) {
  add_session_options(cmd, a.s, 5, "words",
                      "Where to write the table (format from --to or the extension; default word2vec text)");
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
  cmd.add_option("--threads", a.s.threads, "Training threads (0: lumen's --threads, default all cores)")
      ->check(at_least(0));
  set_example(cmd,
              {"lumen train word2vec corpus.txt -o vectors.vec --dim 100 --epochs 5",
               "lumen train word2vec texts/ -o v.bin --model cbow --lower --split-punct --checkpoint-every 1000000",
               "lumen train word2vec --resume v.bin.ckpt texts/ -o v.bin"});
}

int run_word2vec(W2VArgs& a) {
  if (a.s.json) Progress::set_enabled(false);
  if (a.s.resume.empty()) a.o.model = train::parse_w2v_model(a.model);
  a.o.tokenizer = {a.s.lower, a.s.split_punct};
  a.o.threads = a.s.threads;
  const StopOnSignal signals;
  double loss = 0;
  SessionBars bars("word2vec", "words", [&](const train::SessionProgress& p) {
    if (p.status.loss > 0) loss = p.status.loss;
    return fmt::format("loss {:.4f} lr {:.5f} epoch {}/{}", loss, p.status.lr, std::min(p.status.epoch + 1, p.epochs),
                       p.epochs);
  });
  const auto r = train::train_word2vec(a.s.corpus, a.o, a.s.out, session_control(a.s, bars, signals));
  bars.finish();
  if (r.status != train::SessionStatus::finished) return session_interrupted(r.status, r.checkpoint);
  if (a.s.json) {
    print_json(train::word2vec_result_json(r));
    return kOk;
  }
  const auto& o = r.options;
  fmt::print("trained {} x {} {} table: {} words in {:.1f} s ({:.0f} words/s/thread, {} threads), final loss {:.4f}\n",
             r.table.V(), r.table.d(), o.model == train::W2VModel::skipgram ? "skip-gram" : "CBOW", r.words_done,
             r.seconds, r.words_per_sec_per_thread, o.threads, r.loss);
  fmt::print("wrote {} ({}) and {}\n", r.table_path, io::format_name(r.format), r.vocab_path);
  return kOk;
}

// ---- lm ----------------------------------------------------------------------------------------------------

struct LmArgs {
  SessionArgs s;
  std::string optimizer = "adam";
  train::LmOptions o;
  bool no_tie = false;
};

void setup_lm(CLI::App& cmd, LmArgs& a) {
  add_session_options(cmd, a.s, 2, "tokens", "Where to write the input table E (format from --to or the extension)");
  cmd.add_option("--output-head", a.s.out.head,
                 "Untied: where to write the output table W (default: OUTPUT's name + .out)");
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
  cmd.add_option("--threads", a.s.threads, "BLAS threads (0: lumen's --threads)")->check(at_least(0));
  set_example(cmd, {"lumen train lm corpus.txt -o lm.vec --context 3 --dim 64 --hidden 128 --epochs 2",
                    "lumen train lm corpus.txt -o lm.vec --no-tie --optimizer sgd --lr 0.1"});
}

int run_lm(LmArgs& a) {
  if (a.s.json) Progress::set_enabled(false);
  a.o.tie = !a.no_tie;
  if (a.s.resume.empty()) a.o.optimizer = train::parse_optimizer(a.optimizer);
  a.o.tokenizer = {a.s.lower, a.s.split_punct};
  a.o.threads = a.s.threads;
  const StopOnSignal signals;
  SessionBars bars("lm", "tokens", [](const train::SessionProgress& p) {
    return fmt::format("loss {:.3f} lr {:.2e} epoch {}/{}", p.status.loss, p.status.lr,
                       std::min(p.status.epoch + 1, p.epochs), p.epochs);
  });
  auto control = session_control(a.s, bars, signals);
  control.on_epoch = [&](const train::LmEpoch& e) {
    if (a.s.json) return;
    bars.finish();
    fmt::print("epoch {}: train loss {:.4f}, held-out loss {:.4f}, perplexity {:.2f} ({} held-out tokens, {:.1f} s)\n",
               e.epoch, e.train_loss, e.heldout_loss, e.heldout_perplexity, e.heldout_tokens, e.seconds);
    std::fflush(stdout);
  };
  const auto r = train::train_lm(a.s.corpus, a.o, a.s.out, control);
  bars.finish();
  if (r.status != train::SessionStatus::finished) return session_interrupted(r.status, r.checkpoint);
  if (a.s.json) {
    print_json(train::lm_result_json(r));
    return kOk;
  }
  fmt::print("wrote {} ({} x {}, {}){}{} and {}\n", r.table_path, r.table.V(), r.options.dim, io::format_name(r.format),
             r.options.tie ? ", tied" : ", untied: output table ", r.head_path, r.vocab_path);
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
}  // namespace lumen::cli::cmd_train
