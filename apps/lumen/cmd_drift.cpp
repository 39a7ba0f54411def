// lumen drift CKPT --token bank "the river bank was muddy" "the bank approved the loan": Figure 3, a token's
// vector block by block in two contexts (cosine per layer, nearest rows of E, logit lens), and its picture.
#include <algorithm>
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/model/drift.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/drift_run.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_drift {
namespace {

struct DriftArgs {
  std::string checkpoint, token, tokenizer, out;
  std::vector<std::string> contexts;
  std::size_t k = 5;
  bool json = false;
};

std::string words(const std::vector<model::DriftNeighbour>& n, const text::Tokenizer& tok, std::size_t k) {
  std::string s;
  for (std::size_t i = 0; i < std::min(k, n.size()); ++i) s += (i ? " " : "") + tok.label(n[i].id);
  return s;
}
std::string words(const std::vector<model::TokenChoice>& n, const text::Tokenizer& tok, std::size_t k) {
  std::string s;
  for (std::size_t i = 0; i < std::min(k, n.size()); ++i) s += (i ? " " : "") + tok.label(n[i].id);
  return s;
}

void print_text(const model::Drift& d, const text::Tokenizer& tok, std::size_t k) {
  const char names[] = {'A', 'B'};
  for (std::size_t i = 0; i < d.occurrences.size(); ++i) {
    const auto& o = d.occurrences[i];
    fmt::print("{}: {}  ('{}' is token {} of {}, id {})\n", names[i],
               nlohmann::json(o.context).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
               tok.label(o.token), o.position + 1, o.ids.size(), o.token);
  }
  fmt::print("\n{:>5}  {:>7}  {:>15}  {:>8}  {}\n", "layer", "cosine", "baseline", "adjusted",
             "A: nearest rows of E | logit lens    //    B: the same");
  for (std::size_t l = 0; l < d.cosine.size(); ++l) {
    const auto &a = d.occurrences[0], &b = d.occurrences[1];
    const auto& base = d.baseline[l];
    fmt::print("{:>5}  {:>7.4f}  {:>15}  {:>8.4f}  A: {} | {}\n", l, d.cosine[l],
               fmt::format("{:.4f} ± {:.4f}", base.mean_cosine, base.std_cosine), d.adjusted[l],
               words(a.nearest[l], tok, k), words(a.lens[l], tok, k));
    fmt::print("{:>5}  {:>7}  {:>15}  {:>8}  B: {} | {}\n", "", "", "", "", words(b.nearest[l], tok, k),
               words(b.lens[l], tok, k));
  }
  fmt::print("\n");
  fmt::print(
      "baseline: the mean cosine (± its spread) of {} pairs of the {} positions' states of both contexts, per layer; "
      "adjusted = (cosine - baseline) / (1 - baseline): 0 is as alike as two random positions, 1 the same "
      "direction (Ethayarajh 2019's anisotropy correction, rescaled).\n",
      d.baseline[0].all_pairs ? "all " + std::to_string(d.baseline[0].pairs) : std::to_string(d.baseline[0].pairs),
      d.baseline[0].rows);
  if (!d.same_token)
    fmt::print(
        "note: the two occurrences are different tokens ({} and {}), so layer 0 differs by their rows of E too.\n",
        tok.label(d.occurrences[0].token), tok.label(d.occurrences[1].token));
  else if (d.learned_positions)
    fmt::print(
        "note: layer 0 is E[{}] plus the position's row: the same token row in both contexts, so the cosine "
        "{:.4f} is the position term alone (the two position rows differ by {:.4f}; the token row's norm is "
        "{:.4f}). The lookup knows no context; the blocks bring it in.\n",
        tok.label(d.occurrences[0].token), d.cosine[0], d.position_term_norm, d.token_row_norm);
  else
    fmt::print(
        "note: layer 0 is E[{}] alone (RoPE puts positions inside attention), identical in both contexts "
        "(cosine {:.4f}): the lookup knows no context; the blocks bring it in.\n",
        tok.label(d.occurrences[0].token), d.cosine[0]);
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<DriftArgs>();
  cmd.add_option("checkpoint", a->checkpoint, "Hugging Face GPT-2 or Llama directory")->required();
  cmd.add_option("contexts", a->contexts, "Two texts that both hold the token")->required()->expected(2);
  cmd.add_option("--token", a->token, "The token: \" bank\", \"\u2423bank\", \"\u0120bank\", or a bare word")
      ->required();
  cmd.add_option("-k", a->k, "Nearest rows and logit-lens tokens per layer")->check(at_least(1));
  cmd.add_option("--tokenizer", a->tokenizer, "tokenizer.json or encoder.json (default: beside the checkpoint)");
  cmd.add_option("-o,--output", a->out, "Write the picture: .png or .svg (PCA trajectories and cosine by layer)");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen drift models/gpt2 --token bank \"the river bank was muddy\" \"the bank approved the loan\" "
                    "-o drift.png"});
  return [a]() {
    if (a->json) Progress::set_enabled(false);
    const model::DriftRun run = model::run_drift({.checkpoint = a->checkpoint,
                                                  .tokenizer = a->tokenizer,
                                                  .token = a->token,
                                                  .contexts = a->contexts,
                                                  .k = a->k,
                                                  .output = a->out});
    if (run.k < a->k)  // as neighbours does: said once, never k entries per layer
      print_note(fmt::format("-k {} is more than the {} rows of E: showing them all", a->k, run.k));
    if (a->json) {
      print_json(model::drift_json(run.drift, *run.tokenizer));
      return kOk;
    }
    const model::Transformer& m = run.model;
    fmt::print("{} ({} layers, d {}; head {})\n", m.config().model_type, m.shape().layers, m.shape().d,
               run.report.head);
    print_text(run.drift, *run.tokenizer, run.k);
    if (!a->out.empty()) fmt::print("wrote {}\n", a->out);
    return kOk;
  };
}

const Register reg("drift", "Figure 3: a token's vector block by block in two contexts (cosine, nearest rows, lens)",
                   setup, 26);

}  // namespace
}  // namespace lumen::cli::cmd_drift
