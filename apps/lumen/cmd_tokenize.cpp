// lumen tokenize [--tokenizer PATH] TEXT...: the integers a model sees. "The cat sat" -> 464 3797 3332 (GPT-2),
// each id with its piece ("␣cat": a leading space is part of the token). --decode turns ids back into text;
// --file tokenizes a file line by line (--count: totals and throughput only).
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "lumen/text/tokens_json.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_tokenize {
namespace {

struct TokenizeArgs {
  std::string tokenizer;
  std::vector<std::string> texts;
  std::string file;
  bool decode = false;
  bool ids_only = false;
  bool count = false;
  bool no_specials = false;
  bool json = false;
};

std::unique_ptr<text::Tokenizer> open_tokenizer(const std::string& path) {
  return path.empty() ? text::load_gpt2_tokenizer() : text::load_tokenizer(path);
}

void print_ids(const text::Tokenizer& tok, const std::string& input, const std::vector<Id>& ids, bool ids_only) {
  if (ids_only) {
    std::string line;
    for (std::size_t i = 0; i < ids.size(); ++i) line += (i ? " " : "") + std::to_string(ids[i]);
    fmt::print("{}\n", line);
    return;
  }
  fmt::print("{} -> {} token{}\n", nlohmann::json(input).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
             ids.size(), ids.size() == 1 ? "" : "s");
  for (Id id : ids) fmt::print("  {:>6}  {}\n", id, tok.label(id));
}

// Each line of a file, encoded one at a time (as a model's data loader would): totals and throughput.
int tokenize_file(const text::Tokenizer& tok, const TokenizeArgs& a) {
  require_regular_file(a.file);
  std::ifstream in(a.file, std::ios::binary);
  if (!in) throw IoError(fmt::format("cannot open {}", a.file));
  std::vector<std::string> lines;
  std::uint64_t bytes = 0;
  for (std::string line; std::getline(in, line);) {
    bytes += line.size();
    lines.push_back(std::move(line));
  }
  Progress progress("tokenize", lines.size(), "lines");
  std::vector<Id> ids;
  std::uint64_t tokens = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    ids.clear();
    tok.encode(lines[i], ids, !a.no_specials);
    tokens += ids.size();
    if (!a.count) {
      if (a.json) {
        nlohmann::json j = text::tokenized_json(tok, lines[i], ids);
        j["line"] = i + 1;
        print_json(j);
      } else print_ids(tok, lines[i], ids, true);
    }
    if ((i & 1023) == 0) progress.update(i);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  progress.finish();
  const double mb_s = seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0.0;
  if (a.count) {
    if (a.json)
      print_json({{"file", a.file},
                  {"tokenizer", tok.source},
                  {"lines", lines.size()},
                  {"bytes", bytes},
                  {"tokens", tokens},
                  {"seconds", seconds},
                  {"mb_per_s", mb_s}});
    else
      fmt::print("{}: {} lines, {} bytes, {} tokens ({:.2f} bytes/token); encoded in {:.3f} s, {:.1f} MB/s\n", a.file,
                 lines.size(), bytes, tokens, tokens ? static_cast<double>(bytes) / static_cast<double>(tokens) : 0.0,
                 seconds, mb_s);
  }
  return kOk;
}

Id parse_id(const std::string& s) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) throw InputError(fmt::format("--decode: '{}' is not an id", s));
  return static_cast<Id>(v);
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<TokenizeArgs>();
  cmd.add_option("text", a->texts, "Text to tokenize (none: one text per line on stdin); with --decode, ids");
  cmd.add_option("--tokenizer", a->tokenizer,
                 "tokenizer.json (Hugging Face, byte-level BPE), GPT-2's encoder.json, or their directory "
                 "(default: GPT-2, its files found beside lumen (BUILD/gpt2), or $LUMEN_GPT2_DIR)");
  cmd.add_flag("--decode", a->decode, "Turn ids back into text");
  cmd.add_flag("--ids", a->ids_only, "Print only the ids, one line per text");
  cmd.add_option("--file", a->file, "Tokenize each line of a file (prints ids per line)");
  cmd.add_flag("--count", a->count, "With --file: print only totals and throughput (MB/s)");
  cmd.add_flag("--no-specials", a->no_specials, "Special tokens such as <|endoftext|> are ordinary text");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen tokenize \"The cat sat\"", "lumen tokenize --ids \"The cat sat\"",
                    "lumen tokenize --decode 464 3797 3332",
                    "lumen tokenize --tokenizer llama3/tokenizer.json --json \"Hello\"",
                    "lumen tokenize --file corpus.txt --count"});
  return [a]() -> int {
    if (a->json) Progress::set_enabled(false);
    if (a->count && a->file.empty()) throw UsageError("--count needs --file");
    if (!a->file.empty() && !a->texts.empty()) throw UsageError("give either TEXT or --file, not both");
    const auto tok = open_tokenizer(a->tokenizer);
    if (!a->file.empty()) return tokenize_file(*tok, *a);

    if (a->texts.empty()) {
      // stdin: one text per line (blank lines too: they are text)
      for (std::string line; std::getline(std::cin, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        a->texts.push_back(line);
      }
      if (a->texts.empty()) throw UsageError("no text given (on the command line or stdin)");
    }
    if (a->decode) {
      std::vector<Id> ids;
      for (const auto& t : a->texts) {
        std::istringstream in(t);
        for (std::string w; in >> w;) ids.push_back(parse_id(w));
      }
      const std::string out = tok->decode(ids);  // IdError (exit 1) names a bad id and its position
      if (a->json) print_json(text::tokenized_json(*tok, out, ids));
      else fmt::print("{}\n", out);
      return kOk;
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& t : a->texts) {
      const auto ids = tok->encode(t, !a->no_specials);
      if (a->json) all.push_back(text::tokenized_json(*tok, t, ids));
      else print_ids(*tok, t, ids, a->ids_only);
    }
    if (a->json) print_json({{"tokenizer", tok->source}, {"vocab_size", tok->size()}, {"texts", all}});
    return kOk;
  };
}

const Register reg("tokenize", "Text -> token ids and pieces (GPT-2, Llama 3 and other byte-level BPE tokenizers)",
                   setup, 15);

}  // namespace
}  // namespace lumen::cli::cmd_tokenize
