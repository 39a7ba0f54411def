// lumen gpt CKPT "text": run a GPT-2 or Llama checkpoint (Hugging Face directory) on text: the next-token table,
// a sampled continuation (--generate), or the perplexity of a file (--perplexity).
#include <cstdio>
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/core/utf8.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/generate.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "stop_on_signal.hpp"

namespace lumen::cli::cmd_gpt {
namespace {

// --generate's bound: a typo of a few digits must not commit the machine for days (no KV cache: O(T^2) a token).
constexpr std::size_t kMaxGenerate = 1000000;

struct GptArgs {
  std::string checkpoint, text, tokenizer, perplexity_file;
  std::size_t top = 5, generate = 0, top_k = 0, stride = 0;
  double temperature = 1.0;
  std::uint64_t seed = 0;
  bool json = false;
};

std::string describe(const model::Transformer& m, const model::LoadReport& r) {
  const auto& s = m.shape();
  return fmt::format("{} ({} layers, d {}, {} heads{}, V {}, context {}; head {}; {}, {} parameters)",
                     m.config().model_type, s.layers, s.d, s.heads,
                     s.kv_heads != s.heads ? fmt::format(" / {} kv-heads", s.kv_heads) : std::string(), s.V, s.context,
                     r.head, r.dtype, r.parameters);
}

std::vector<std::int32_t> encode(const text::Tokenizer& tok, const std::string& text) {
  const auto ids = tok.encode(text);
  return {ids.begin(), ids.end()};
}

int run_perplexity(const model::Transformer& m, const text::Tokenizer& tok, const GptArgs& a) {
  const auto ids = encode(tok, read_file(a.perplexity_file));
  if (ids.size() < 2)
    throw InputError(fmt::format("{}: {} token{}; perplexity needs at least 2", a.perplexity_file, ids.size(),
                                 ids.size() == 1 ? "" : "s"));
  Progress bar("perplexity", 0, "windows");
  const model::Perplexity p =
      model::perplexity(m, ids, a.stride, 0, [&](const std::string&, std::uint64_t done, std::uint64_t total) {
        bar.update(done, fmt::format("of {}", total));
      });
  bar.finish();
  if (a.json) {
    print_json({{"file", a.perplexity_file},
                {"tokens", p.tokens},
                {"windows", p.windows},
                {"context", p.context},
                {"stride", p.stride},
                {"nll", p.nll},
                {"perplexity", p.perplexity}});
  } else {
    fmt::print("{}: {} tokens predicted in {} window{} (context {}, stride {})\n", a.perplexity_file, p.tokens,
               p.windows, p.windows == 1 ? "" : "s", p.context, p.stride);
    fmt::print("mean negative log-likelihood {:.4f} nats/token, perplexity {:.3f}\n", p.nll, p.perplexity);
  }
  return kOk;
}

// The model's bytes may hold terminal controls: shown escaped, line breaks kept.
std::string shown(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
    out += printable(text.substr(from, nl - from)) + "\n";
  return out + printable(text.substr(from));
}

// Bytes of `text` up to its last whole UTF-8 sequence: a token may end inside a character the next completes.
std::size_t whole_sequences(const std::string& text) {
  std::size_t i = 0, bad = 0;
  while (i < text.size()) {
    const std::size_t n = utf8_sequence(text, i, bad);
    if (n == 0 && i + bad == text.size() && text.size() - i < 4) break;  // maybe a character still to come
    i += n != 0 ? n : bad;
  }
  return i;
}

// Text: each token printed as it is made (flushed, so a pipe sees it too). Ctrl-C stops before the next token;
// what was made is printed (--json: as JSON, with "interrupted") and the exit is 130.
int run_generate(const model::Transformer& m, const text::Tokenizer& tok, const GptArgs& a,
                 const std::vector<std::int32_t>& ids) {
  const StopOnSignal signals;
  model::SampleOptions o;
  o.tokens = a.generate;
  o.temperature = a.temperature;
  o.top_k = a.top_k;
  o.seed = a.seed;
  o.stop = signals.flag();
  // decode() concatenates the tokens' bytes: each token's piece is printed as it comes, except for the bytes that
  // only begin a character (held in `pending` until the next token completes it).
  std::string pending;
  const auto print_whole = [&](bool last) {
    const std::size_t upto = last ? pending.size() : whole_sequences(pending);
    if (upto == 0) return;
    fmt::print("{}", shown(pending.substr(0, upto)));
    std::fflush(stdout);
    pending.erase(0, upto);
  };
  if (!a.json) {
    Progress::set_enabled(false);  // the tokens are the progress
    fmt::print("{}", printable(a.text));
    std::fflush(stdout);
    o.on_token = [&](std::int32_t id) {
      pending += tok.piece(id);
      print_whole(false);
    };
  }
  Progress bar("generate", a.generate, "tokens");
  const auto added =
      model::generate(m, ids, o, [&](const std::string&, std::uint64_t done, std::uint64_t) { bar.update(done); });
  bar.finish();
  const bool stopped = signals.requested() && added.size() < a.generate;
  if (a.json) {
    const std::vector<Id> gen(added.begin(), added.end());
    nlohmann::json tokens = nlohmann::json::array();
    for (Id id : gen) tokens.push_back(tok.label(id));
    nlohmann::json j = {{"ids", ids}, {"generated", added}, {"tokens", tokens}, {"text", tok.decode(gen)}};
    if (stopped) j["interrupted"] = true;
    print_json(j);
  } else {
    print_whole(true);
    fmt::print("\n");
  }
  if (!stopped) return kOk;
  print_error(fmt::format("interrupted after {} of {} tokens", added.size(), a.generate));
  return kInterrupted;
}

int run_next(const model::Transformer& m, const text::Tokenizer& tok, const GptArgs& a,
             const std::vector<std::int32_t>& ids) {
  model::ForwardOptions fo;
  fo.last_only = true;
  const model::ForwardResult r = m.forward(ids, fo);
  if (a.top > m.shape().V)  // as neighbours does
    print_note(fmt::format("--top {} is more than the {} tokens: showing them all", a.top, m.shape().V));
  const auto top = model::top_tokens(r.logits.data(), m.shape().V, a.top);
  if (a.json) {
    nlohmann::json next = nlohmann::json::array();
    for (const auto& c : top)
      next.push_back({{"token", tok.label(c.id)}, {"id", c.id}, {"logit", c.logit}, {"prob", c.prob}});
    print_json({{"ids", ids}, {"next", next}});
    return kOk;
  }
  std::string pieces;
  for (auto id : ids) pieces += (pieces.empty() ? "" : " ") + tok.label(id);
  fmt::print("{} token{}: {}\n", ids.size(), ids.size() == 1 ? "" : "s", pieces);
  fmt::print("next token:\n  {:>4}  {:<16} {:>7} {:>9} {:>8}\n", "#", "token", "id", "logit", "prob");
  for (std::size_t i = 0; i < top.size(); ++i)
    fmt::print("  {:>4}  {:<16} {:>7} {:>9.4f} {:>8.4f}\n", i + 1, tok.label(top[i].id), top[i].id, top[i].logit,
               top[i].prob);
  return kOk;
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<GptArgs>();
  cmd.add_option("checkpoint", a->checkpoint,
                 "Hugging Face GPT-2 or Llama directory (config.json, model.safetensors or its shards)")
      ->required();
  cmd.add_option("text", a->text, "Text to run the model on (default: all of stdin; not with --perplexity)");
  cmd.add_option("--top", a->top, "Rows of the next-token table")->check(at_least(1));
  cmd.add_option("--tokenizer", a->tokenizer,
                 "tokenizer.json or encoder.json (default: the one in the checkpoint's directory)");
  auto* o_gen = cmd.add_option("--generate", a->generate,
                               "Sample N tokens after the text (1 to 1000000; printed as they come, Ctrl-C stops)")
                    ->check(CLI::Range(std::size_t{1}, kMaxGenerate));
  auto* o_temp = cmd.add_option("--temperature", a->temperature, "Sampling temperature (0: greedy)")
                     ->check(CLI::Range(0.0, 100.0));
  auto* o_topk =
      cmd.add_option("--top-k", a->top_k, "Sample among the K most probable tokens (0: all)")->check(at_least(0));
  auto* o_seed = cmd.add_option("--seed", a->seed, "Random seed (the same seed gives the same tokens)");
  auto* o_ppl = cmd.add_option("--perplexity", a->perplexity_file,
                               "Perplexity of a text file (longer than the context: a sliding window)");
  auto* o_stride = cmd.add_option("--stride", a->stride, "Sliding window step for --perplexity (default: context/2)")
                       ->check(at_least(1));
  o_temp->needs(o_gen);
  o_topk->needs(o_gen);
  o_seed->needs(o_gen);
  o_stride->needs(o_ppl);
  o_ppl->excludes(o_gen);
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen gpt models/gpt2 \"The cat sat on the\" --top 5",
                    "lumen gpt models/gpt2 \"Once upon a time\" --generate 20 --temperature 0.8 --top-k 40 --seed 1",
                    "echo \"The cat sat on the\" | lumen gpt models/gpt2 --json",
                    "lumen gpt models/gpt2 --perplexity story.txt --json"});
  return [a]() {
    if (a->json) Progress::set_enabled(false);
    if (a->perplexity_file.empty() && a->text.empty()) {  // the text piped in, as every command reads stdin
      const auto piped = stdin_text();
      if (!piped) throw UsageError("give the text to run the model on, pipe it in, or give --perplexity FILE");
      a->text = *piped;
      if (a->text.empty())  // as the other commands say it
        throw UsageError("no text given (on the command line or stdin), and no --perplexity FILE");
    }
    if (!a->perplexity_file.empty() && !a->text.empty())
      throw UsageError("--perplexity reads its text from the file; give no text argument with it");
    model::LoadReport report;
    Progress bar("load", 0, "");
    const model::Transformer m = model::load_checkpoint(
        a->checkpoint, &report, [&](const std::string&, std::uint64_t done, std::uint64_t total) {
          bar.update(done, fmt::format("of {}", total));
        });
    bar.finish();
    const auto tok = model::tokenizer_for(m, a->checkpoint, a->tokenizer);
    if (!a->json) fmt::print("{}\n", describe(m, report));
    if (!a->perplexity_file.empty()) return run_perplexity(m, *tok, *a);
    const auto ids = encode(*tok, a->text);
    if (ids.empty()) throw InputError("the text encodes to no tokens");
    if (ids.size() > m.shape().context)
      throw InputError(
          fmt::format("the text is {} tokens; the model's context is {} (shorten it, or score a long text "
                      "with --perplexity, which slides a window)",
                      ids.size(), m.shape().context));
    if (a->generate > 0) return run_generate(m, *tok, *a, ids);
    return run_next(m, *tok, *a, ids);
  };
}

const Register reg("gpt", "Run a GPT-2 or Llama checkpoint: next-token table, --generate, --perplexity", setup, 25);

}  // namespace
}  // namespace lumen::cli::cmd_gpt
