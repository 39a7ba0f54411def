#include "common.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "lumen/core/error.hpp"
#include "lumen/io/default_table.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/write.hpp"
#include "lumen/text/load_table.hpp"
#include "lumen/text/output_head.hpp"
#include "messages.hpp"
#include "option_checks.hpp"

namespace lumen::cli {

const char* const kTableRule =
    "TABLE is optional: the first argument is the table if it names an existing file or directory, a built-in "
    "table (toy, default) or ends in .vec .txt .bin .glove .safetensors .npy or .tsv; otherwise every argument is "
    "a word and the default table is used. --table TABLE says it explicitly.";

void add_table_options(CLI::App& cmd, TableArgs& args, bool positional) {
  if (positional)
    cmd.add_option("table,--table", args.path,
                   "Table file (any format lumen reads) or a built-in name (default: the default table)");
  cmd.add_option(
      "--format", args.format,
      "Table format: word2vec-text, word2vec-binary, glove, fasttext-bin, safetensors, npy, projector-tsv, gguf "
      "(default: detect)");
  cmd.add_option("--dtype", args.dtype, "Storage type: f32, f16, bf16")->capture_default_str();
  cmd.add_option("--limit", args.limit, "Read only the first N rows (0: all)")->check(at_least(0));
  cmd.add_option(
      "--tensor", args.tensor,
      "safetensors, GGUF: the tensor to read (default: a conventional embedding name; GGUF: token_embd.weight)");
  cmd.add_option("--vocab", args.vocab, "npy: a vocabulary file, one token per line");
  cmd.add_option("--unicode-errors", args.unicode_errors, "Invalid UTF-8 in tokens: strict, replace, ignore")
      ->capture_default_str();
  cmd.add_option("--tokenizer", args.tokenizer,
                 "Label rows by token and accept tokens as text (\" cat\" or \"\u2423cat\"): a tokenizer.json, GPT-2's "
                 "encoder.json, or their directory (default: a tokenizer.json beside a checkpoint; \"none\": off)");
  cmd.add_option("--cache", args.cache,
                 "Keep parsed text tables in DIR as mapped binaries; later opens map them (default: $LUMEN_CACHE)");
}

void add_table_and_words(CLI::App& cmd, TableArgs& table, std::vector<std::string>& words,
                         const std::string& words_help) {
  add_table_options(cmd, table, false);
  cmd.add_option("--table", table.path, "The table: a file (any format lumen reads) or a built-in name (toy, default)");
  cmd.add_option("words", words, "[TABLE] " + words_help);
  cmd.footer(std::string(kTableRule));  // set_example() later puts the examples after it
}

namespace {
bool has_table_extension(const std::string& name) {
  const std::string ext = std::filesystem::path(name).extension().string();
  for (const char* e : {".vec", ".txt", ".bin", ".glove", ".safetensors", ".npy", ".tsv", ".gguf"})
    if (ext == e) return true;
  return false;
}
bool is_builtin_table(const std::string& name) { return name == "default" || name == "toy"; }
}  // namespace

bool names_table(const std::string& name) {
  std::error_code ec;
  return is_builtin_table(name) || has_table_extension(name) || std::filesystem::exists(name, ec);
}

void split_table_argument(TableArgs& table, std::vector<std::string>& words) {
  if (!table.path.empty() || words.empty()) return;  // --table, or nothing but stdin
  const std::string first = words.front();
  if (names_table(first)) {
    table.path = first;
    words.erase(words.begin());
    // Only a file whose name could as well be a word (`king`) makes this choice surprising: say so if it fails.
    if (!is_builtin_table(first) && !has_table_extension(first))
      set_error_note(
          fmt::format("'{}' was taken as the table, since a file of that name exists; "
                      "--table default looks every argument up in the default table",
                      first));
  } else {
    set_error_note(
        fmt::format("'{}' was taken as a word, not a table: no file or built-in table has that name, so "
                    "the default table ({}) was used; --table names a table explicitly",
                    first, default_table_path()));
  }
}

std::string default_table_path() { return io::default_table_path(); }

std::string require_default_table() { return io::require_default_table(); }

Table load_table(const TableArgs& args) {
  io::LoadReport report;
  return load_table(args, report);
}

Table load_table(const TableArgs& args, io::LoadReport& report) {
  std::shared_ptr<const text::Tokenizer> unused;
  return load_table(args, report, unused);
}

namespace {
// The library's request for the table the arguments name.
text::TableRequest table_request(const TableArgs& args) {
  text::TableRequest r;
  r.path = args.path;
  if (!args.format.empty()) r.open.format = io::parse_format(args.format);
  r.open.dtype = parse_dtype(args.dtype);
  r.open.limit = args.limit;
  r.open.tensor = args.tensor;
  r.open.vocab_path = args.vocab;
  r.open.unicode_errors = io::parse_unicode_errors(args.unicode_errors);
  r.open.cache_dir = args.cache;
  r.tokenizer = args.tokenizer;
  return r;
}

// The table, once its warnings are said.
Table warned(text::LoadedTable& loaded) {
  for (const auto& w : loaded.warnings) print_warning(w);
  return std::move(loaded.table);
}
}  // namespace

Table load_table(const TableArgs& args, io::LoadReport& report, std::shared_ptr<const text::Tokenizer>& tokenizer) {
  text::LoadedTable loaded = text::load_table(table_request(args), report);
  if (loaded.tokenizer) tokenizer = std::move(loaded.tokenizer);
  return warned(loaded);
}

Table load_output_head(const TableArgs& table, const std::string& head) {
  io::LoadReport report;
  text::LoadedTable loaded = text::load_output_head(table_request(table), head, report);
  return warned(loaded);
}

std::vector<std::string> table_input_files(const TableArgs& in, const Table& t, bool tokenized) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  const std::string table = t.source == "default" ? default_table_path() : in.path;
  if (t.source == "toy" && !fs::exists(in.path)) return files;
  files.push_back(table);
  if (!in.vocab.empty()) files.push_back(in.vocab);
  if (t.format == io::format_name(io::Format::npy)) files.push_back(io::npy_vocab_path(table));
  if (tokenized) {
    const fs::path dir = in.tokenizer.empty() ? fs::path(table).parent_path() : fs::path(in.tokenizer);
    if (!in.tokenizer.empty() && !fs::is_directory(dir)) files.push_back(in.tokenizer);
    else
      for (const char* f : {"tokenizer.json", "encoder.json", "vocab.bpe"}) files.push_back((dir / f).string());
  }
  return files;
}

void add_json_flag(CLI::App& cmd, bool& json) { cmd.add_flag("--json", json, "Print JSON (for scripts)"); }

void print_json(const nlohmann::json& j) {
  std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

std::vector<std::string> stdin_lines() {
  std::vector<std::string> out;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) out.push_back(line);
  }
  return out;
}

std::optional<std::string> stdin_text() {
  if (::isatty(STDIN_FILENO) != 0) return std::nullopt;
  std::ostringstream all;
  all << std::cin.rdbuf();
  std::string s = all.str();
  if (s.ends_with("\r\n")) s.resize(s.size() - 2);
  else if (s.ends_with('\n')) s.pop_back();
  return s;
}

std::vector<std::vector<std::string>> stdin_word_lines() {
  std::vector<std::vector<std::string>> out;
  for (const auto& line : stdin_lines()) {
    std::istringstream in(line);
    auto& words = out.emplace_back();
    for (std::string w; in >> w;) words.push_back(w);
  }
  return out;
}

void set_example(CLI::App& cmd, const std::vector<std::string>& examples) {
  std::string f = cmd.get_footer().empty() ? "" : cmd.get_footer() + "\n\n";
  f += examples.size() == 1 ? "Example:" : "Examples:";
  for (auto& e : examples) f += "\n  " + e;
  cmd.footer(f);
}

}  // namespace lumen::cli
