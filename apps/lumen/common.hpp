#pragma once
// Helpers every command shares: output as text or JSON, the table argument, stdin batches.
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"

namespace lumen::text {
class Tokenizer;
}

namespace lumen::cli {

// Options common to commands that read a table: the path (or a built-in name) and how to read it.
struct TableArgs {
  std::string path;    // empty: the default table
  std::string format;  // empty: detect from content
  std::string dtype = "f32";
  std::size_t limit = 0;  // 0: all rows
  std::string tensor;     // safetensors tensor name
  std::string vocab;      // vocabulary file for .npy
  std::string unicode_errors = "strict";
  std::string tokenizer;  // rows labelled by token (empty: a tokenizer.json beside the table; "none": off)
  std::string cache;      // --cache DIR (empty: $LUMEN_CACHE, else none): parsed text tables kept as mapped binaries
};

// Adds --format/--dtype/--limit/--tensor/--vocab/--unicode-errors; `positional` adds TABLE as a positional arg
// (also accepted as --table).
void add_table_options(CLI::App& cmd, TableArgs& args, bool positional = true);

// What the commands below hold: the table and the words after it.
struct TableAndWords {
  TableArgs table;
  std::vector<std::string> words;
};

// Commands whose words follow an optional table (neighbours, similarity, analogy, doesnt-match, onehot) take one
// positional list "[TABLE] WORD..." and --table; `words_help` says what the words are.
void add_table_and_words(CLI::App& cmd, TableArgs& table, std::vector<std::string>& words,
                         const std::string& words_help);
// The rule, in every such command's --help: without --table, the first argument is the table when it names an
// existing file or directory, a built-in table (toy, default) or ends in a table file's extension (.vec .txt
// .bin .glove .safetensors .npy .tsv); otherwise every argument is a word, looked up in the default table.
// Moves the table out of `words` into table.path. Either way, an error later says which choice was made.
void split_table_argument(TableArgs& table, std::vector<std::string>& words);
// True if `name` would be taken as a table by that rule.
bool names_table(const std::string& name);
extern const char* const kTableRule;  // the rule in one sentence, for --help
// The default table: $LUMEN_DEFAULT_TABLE if set, else default/brown.vec beside this executable (made by
// scripts/make-default-table.sh; core/data_paths.hpp). require_default_table() throws InputError saying how to build it
// if missing.
std::string default_table_path();
std::string require_default_table();
// An untied model's output head W, for --heads (text::load_output_head): HEAD when given; a safetensors
// checkpoint's lm_head tensor (same file, same token labels, so rows pair by token id); else TABLE.out beside the
// table (as `lumen train lm --no-tie` writes it). InputError when there is none; warns on stderr as load_table.
Table load_output_head(const TableArgs& table, const std::string& head);
// Opens the table the arguments name (a file of any format, or a built-in name).
Table load_table(const TableArgs& args);
// The same, also saying what the reader dropped or repaired (duplicate words, invalid UTF-8); warns on stderr.
Table load_table(const TableArgs& args, io::LoadReport& report);
// The same, handing over the tokenizer that labelled the rows (null when none did), for commands that tokenize text.
Table load_table(const TableArgs& args, io::LoadReport& report, std::shared_ptr<const text::Tokenizer>& tokenizer);

// Every file a load_table(args, ...) read: the table, its .npy vocabulary (named or found beside it), its tokenizer
// (`tokenized`: one labelled the rows). What a command that writes must keep apart from its outputs
// (lumen::check_outputs_apart).
std::vector<std::string> table_input_files(const TableArgs& in, const Table& t, bool tokenized);

// Adds --json to a command.
void add_json_flag(CLI::App& cmd, bool& json);
// Prints a JSON value on stdout (one line, then a newline).
void print_json(const nlohmann::json& j);

// Reads non-empty lines from stdin (for commands given no query on the command line).
std::vector<std::string> stdin_lines();
// All of stdin as one text, one trailing newline dropped (a prompt piped in); nullopt when stdin is a terminal,
// where a command should say what to give rather than wait.
std::optional<std::string> stdin_text();
// The same, each line split at whitespace (for commands whose query is several words: one query per line).
std::vector<std::vector<std::string>> stdin_word_lines();

// Sets the footer to "Example:\n  <example>" lines.
void set_example(CLI::App& cmd, const std::vector<std::string>& examples);

}  // namespace lumen::cli
