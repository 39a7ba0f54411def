// lumen train gpt: a small GPT-2 trained from scratch on a corpus, written as a Hugging Face GPT-2 directory.
// Parsing, signals and printing only; the work is in lumen_model (gpt_trainer.hpp, hf_export.hpp).
#include "cmd_train_gpt.hpp"

#include <atomic>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/model/gpt_trainer.hpp"
#include "lumen/model/hf_export.hpp"
#include "lumen/model/token_stream.hpp"
#include "lumen/model/word_tokenizer.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "lumen/train/corpus.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "stop_on_signal.hpp"

namespace lumen::cli::cmd_train_gpt {
namespace {

struct GptArgs {
  std::vector<std::string> corpus;
  std::string output, tokenizer = "gpt2", checkpoint, resume;
  model::GptTrainOptions o;
  bool untie = false, json = false;
  std::uint64_t checkpoint_every = 0;
  const CLI::App* cmd = nullptr;  // which options were given (a resumed run notes those it does not use)
};

// How the CLI spells a GptTrainOptions name, and whether the user gave it.
std::string gpt_flag(const std::string& option) { return option == "tie" ? "the head" : option_flag(option); }
bool given(const CLI::App& cmd, const std::string& option) {
  const auto count = [&cmd](const std::string& flag) {
    const CLI::Option* o = cmd.get_option_no_throw(flag);
    return o == nullptr ? 0 : o->count();
  };
  return option == "tie" ? count("--tie") + count("--untie") > 0 : count(option_flag(option)) > 0;
}

// Every file the run reads (the corpus's, the resumed checkpoint unless it is the checkpoint written, GPT-2's
// tokenizer files, whichever tokenizer is used: a directory replaced there would take them) apart from the
// checkpoint it writes and the directory it replaces (issue #35).
void check_apart(const GptArgs& a, const train::Corpus& corpus, const std::string& gpt2_dir, const std::string& ckpt) {
  std::vector<std::string> inputs;
  for (const auto& f : corpus.files()) inputs.push_back(f.path);
  if (!a.resume.empty() && !same_file(a.resume, ckpt)) inputs.push_back(a.resume);
  if (!gpt2_dir.empty())
    for (const char* f : {"encoder.json", "vocab.bpe"})
      inputs.push_back((std::filesystem::path(gpt2_dir) / f).string());
  check_outputs_apart(inputs, {ckpt}, {a.output});
}

nlohmann::json eval_json(const model::GptEval& e) {
  return {{"step", e.step},
          {"train_loss", e.train_loss},
          {"heldout_loss", e.heldout_loss},
          {"heldout_perplexity", e.heldout_perplexity},
          {"seconds", e.seconds}};
}

int run(GptArgs& a) {
  if (a.json) Progress::set_enabled(false);
  if (a.corpus.empty())
    throw UsageError(a.resume.empty() ? "no corpus given (text files or directories)"
                                      : "--resume needs the corpus it was trained on");
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a.output, ec) && !fs::is_directory(a.output, ec))
    throw UsageError(
        fmt::format("-o {}: exists and is not a directory (the model is written as a directory)", a.output));
  model::check_gpt2_destination(a.output);  // before hours of training: a directory it may replace
  const std::string ckpt = a.checkpoint.empty() ? a.output + ".ckpt" : a.checkpoint;
  const auto corpus = train::Corpus::open(a.corpus);
  const std::string gpt2_dir = text::default_gpt2_dir();
  check_apart(a, corpus, gpt2_dir, ckpt);  // nothing read may be written over, before anything is
  const StopOnSignal signals;
  a.o.tie = !a.untie;
  a.o.tokenizer = a.tokenizer;
  // Resuming: the checkpoint's options (its tokenizer, so that the stream is the one it was trained on); an option
  // given that differs is noted, never silently dropped.
  const model::GptTrainOptions opts = a.resume.empty() ? a.o : model::GptTrainer::checkpoint_options(a.resume);
  if (!a.resume.empty() && a.cmd != nullptr)
    for (const auto& n : model::resume_notes(a.o, opts))
      if (given(*a.cmd, n.option)) print_note(n.text_for(gpt_flag(n.option)));
  std::string words_json;
  if (opts.tokenizer != "words" && gpt2_dir.empty())
    throw InputError("GPT-2's tokenizer files (encoder.json, vocab.bpe) were not found; set LUMEN_GPT2_DIR");
  std::unique_ptr<text::Tokenizer> tokenizer;
  if (opts.tokenizer == "words") {
    {
      Progress bar("vocabulary", corpus.bytes(), "bytes");
      words_json = model::word_tokenizer_json(corpus, opts.max_words,
                                              [&](std::uint64_t done, std::uint64_t) { bar.update(done); });
    }
    tokenizer = text::parse_tokenizer_json(words_json, "the corpus's word vocabulary");
  } else {
    tokenizer = text::load_tokenizer(gpt2_dir);
  }
  std::vector<std::int32_t> tokens;
  {
    Progress bar("tokenize", corpus.bytes(), "bytes");
    tokens = model::encode_corpus(corpus, *tokenizer, [&](std::uint64_t done, std::uint64_t) { bar.update(done); });
  }
  std::optional<model::GptTrainer> trainer;
  if (!a.resume.empty()) {
    trainer.emplace(model::GptTrainer::load_checkpoint(a.resume, tokens));
  } else {
    trainer.emplace(tokens, tokenizer->size(), a.o);
  }
  const model::GptTrainOptions& o = trainer->options();
  train::TrainControl control;
  control.stop = signals.flag();
  control.checkpoint_every = a.checkpoint_every;
  control.on_checkpoint = [&] { trainer->save_checkpoint(ckpt); };
  bool done = false;
  {
    Progress bar("gpt", o.steps, "steps");
    bar.update(trainer->step());
    done = trainer->train(
        control,
        [&](const model::GptStep& s) {
          bar.update(s.step, fmt::format("loss {:.3f} lr {:.2e} {:.0f} tok/s", s.loss, s.lr, s.tokens_per_second));
        },
        [&](const model::GptEval& e) {
          if (a.json) return;
          bar.finish();
          fmt::print("step {}/{}: train loss {:.4f}, held-out loss {:.4f}, perplexity {:.2f} ({:.1f} s)\n", e.step,
                     o.steps, e.train_loss, e.heldout_loss, e.heldout_perplexity, e.seconds);
          std::fflush(stdout);
        });
  }
  if (!done) {
    trainer->save_checkpoint(ckpt);
    fmt::print(stderr, "lumen: interrupted at step {}; checkpoint written to {} (continue with --resume {})\n",
               trainer->step(), ckpt, ckpt);
    return kInterrupted;
  }
  trainer->export_hf(a.output, opts.tokenizer == "words" ? "" : gpt2_dir, words_json);
  if (a.checkpoint_every > 0 || !a.resume.empty()) fs::remove(ckpt, ec);
  const auto& h = trainer->history();
  const nn::ModelShape& s = trainer->shape();
  if (a.json) {
    nlohmann::json evals = nlohmann::json::array();
    for (const auto& e : h) evals.push_back(eval_json(e));
    print_json({{"output", a.output},
                {"V", s.V},
                {"layers", s.layers},
                {"d_model", s.d},
                {"heads", s.heads},
                {"context", s.context},
                {"tied", s.tied},
                {"tokenizer", o.tokenizer},
                {"steps", o.steps},
                {"batch", o.batch},
                {"lr", o.lr},
                {"seed", o.seed},
                {"train_tokens", trainer->train_tokens()},
                {"heldout_tokens", trainer->heldout_tokens()},
                {"evals", evals},
                {"heldout_loss", h.empty() ? nlohmann::json() : nlohmann::json(h.back().heldout_loss)},
                {"heldout_perplexity", h.empty() ? nlohmann::json() : nlohmann::json(h.back().heldout_perplexity)}});
  } else {
    fmt::print(
        "wrote {} (GPT-2: {} layers, d_model {}, {} heads, context {}, V {}, {}); open it with `lumen gpt {} "
        "TEXT`\n",
        a.output, s.layers, s.d, s.heads, s.context, s.V, s.tied ? "tied" : "untied", a.output);
  }
  return kOk;
}

}  // namespace
}  // namespace lumen::cli::cmd_train_gpt

namespace lumen::cli {

Action setup_train_gpt(CLI::App& cmd) {
  using namespace cmd_train_gpt;  // this file's own helpers
  auto a = std::make_shared<GptArgs>();
  a->cmd = &cmd;
  cmd.add_option("corpus", a->corpus, "Text files or directories")->expected(0, -1);
  cmd.add_option("-o,--output", a->output, "Directory to write (config.json, model.safetensors, tokenizer)")
      ->required();
  cmd.add_option("--layers", a->o.layers, "Blocks N")->capture_default_str()->check(at_least(0));
  cmd.add_option("--d-model", a->o.d_model, "Width d_model (C)")->capture_default_str()->check(at_least(0));
  cmd.add_option("--heads", a->o.heads, "Attention heads (must divide d_model)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--context", a->o.context, "Tokens per training window (T; n_positions)")
      ->capture_default_str()
      ->check(at_least(0));
  auto* tie = cmd.add_flag("--tie", a->o.tie, "Tie the head to wte (default)");
  cmd.add_flag("--untie", a->untie, "Give the head its own lm_head (V, d_model)")->excludes(tie);
  cmd.add_option("--tokenizer", a->tokenizer,
                 "gpt2 (GPT-2's byte-level BPE, V 50257) or words (the corpus's --max-words most frequent words, "
                 "beside 256 byte tokens)")
      ->capture_default_str()
      ->check(CLI::IsMember({"gpt2", "words"}));
  cmd.add_option("--max-words", a->o.max_words, "--tokenizer words: words in the vocabulary")
      ->capture_default_str()
      ->check(at_least(1));
  cmd.add_option("--steps", a->o.steps, "Optimizer steps")->capture_default_str()->check(at_least(0));
  cmd.add_option("--batch", a->o.batch, "Windows per step (B)")->capture_default_str()->check(at_least(0));
  cmd.add_option("--lr", a->o.lr, "Peak learning rate (after warm-up; cosine decay to --min-lr)")
      ->capture_default_str();
  cmd.add_option("--min-lr", a->o.min_lr, "Learning rate at the last step")->capture_default_str();
  cmd.add_option("--warmup", a->o.warmup, "Warm-up steps (0: steps/20)")->check(at_least(0));
  cmd.add_option("--weight-decay", a->o.weight_decay, "AdamW's decoupled decay (matrices only)")->capture_default_str();
  cmd.add_option("--grad-clip", a->o.grad_clip, "Clip the gradient's global norm (0: off)")->capture_default_str();
  cmd.add_option("--holdout", a->o.holdout, "Fraction of the tokens (their end) held out")->capture_default_str();
  cmd.add_option("--eval-every", a->o.eval_every, "Steps between held-out evaluations (0: at the end only)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--eval-batches", a->o.eval_batches, "Batches of held-out windows per evaluation")
      ->capture_default_str()
      ->check(at_least(0));
  cmd.add_option("--seed", a->o.seed, "Random seed")->capture_default_str()->check(at_least(0));
  cmd.add_option("--threads", a->o.threads, "Threads (0: lumen's --threads)")->check(at_least(0));
  cmd.add_option("--checkpoint", a->checkpoint, "Checkpoint file (default: OUTPUT.ckpt)");
  cmd.add_option("--checkpoint-every", a->checkpoint_every, "Write a checkpoint every N steps (0: only on Ctrl-C)")
      ->check(at_least(0));
  cmd.add_option("--resume", a->resume, "Continue from a checkpoint (its options are used)");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen train gpt corpus.txt -o tiny-gpt --layers 4 --d-model 128 --heads 4 --context 128 "
                    "--steps 2000 --batch 8",
                    "lumen train gpt corpus.txt -o word-gpt --tokenizer words --max-words 8000 --untie",
                    "lumen train gpt corpus.txt -o tiny-gpt --resume tiny-gpt.ckpt"});
  return [a]() { return run(*a); };
}

}  // namespace lumen::cli
