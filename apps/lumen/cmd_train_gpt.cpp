// lumen train gpt: a small GPT-2 trained from scratch on a corpus, written as a Hugging Face GPT-2 directory.
// Parsing, signals and printing only; the session (tokenizer, encoding, training, checkpoints, the directory) is
// the library's: lumen/model/gpt_session.hpp.
#include "cmd_train_gpt.hpp"

#include <fmt/format.h>
#include <memory>

#include "common.hpp"
#include "lumen/model/gpt_session.hpp"
#include "lumen/model/gpt_session_json.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "session_bars.hpp"
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

int run(GptArgs& a) {
  if (a.json) Progress::set_enabled(false);
  const StopOnSignal signals;
  a.o.tie = !a.untie;
  a.o.tokenizer = a.tokenizer;
  SessionBars bars("gpt", "steps", [](const train::SessionProgress& p) {
    return fmt::format("loss {:.3f} lr {:.2e} {:.0f} tok/s", p.status.loss, p.status.lr, p.tokens_per_second);
  });
  model::GptSessionControl control;
  control.stop = signals.flag();
  control.resume = a.resume;
  control.checkpoint_every = a.checkpoint_every;
  std::size_t steps = a.o.steps;
  control.on_eval = [&](const model::GptEval& e) {
    if (a.json) return;
    bars.finish();
    fmt::print("step {}/{}: train loss {:.4f}, held-out loss {:.4f}, perplexity {:.2f} ({:.1f} s)\n", e.step, steps,
               e.train_loss, e.heldout_loss, e.heldout_perplexity, e.seconds);
    std::fflush(stdout);
  };
  control.on_progress = [&](const train::SessionProgress& p) {
    if (p.phase == train::SessionPhase::training) steps = p.total;  // a resumed run's: the checkpoint's
    bars.update(p);
  };
  // A resumed run keeps its checkpoint's options: those given that differ are said, never silently dropped.
  control.on_resume = [&a](const std::vector<model::ResumeNote>& notes) {
    for (const auto& n : notes)
      if (a.cmd != nullptr && given(*a.cmd, n.option)) print_note(n.text_for(gpt_flag(n.option)));
  };
  const auto r = model::train_gpt(a.corpus, a.o, {a.output, a.checkpoint}, control);
  bars.finish();
  if (r.status != train::SessionStatus::finished)
    return session_interrupted(r.status, r.checkpoint, fmt::format(" at step {}", r.step));
  if (a.json) {
    print_json(model::gpt_session_json(r));
    return kOk;
  }
  const nn::ModelShape& s = r.shape;
  fmt::print(
      "wrote {} (GPT-2: {} layers, d_model {}, {} heads, context {}, V {}, {}); open it with `lumen gpt {} TEXT`\n",
      r.output, s.layers, s.d, s.heads, s.context, s.V, s.tied ? "tied" : "untied", r.output);
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
