#pragma once
// Opening a table from a file of any supported format (detected from the content, or named).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/core/dtype.hpp"
#include "lumen/core/table.hpp"

namespace lumen::io {

enum class Format { word2vec_text, word2vec_binary, glove, fasttext_bin, safetensors, npy, projector_tsv, gguf };
enum class UnicodeErrors { strict, replace, ignore };

std::string_view format_name(Format f);
Format parse_format(std::string_view name);  // throws UsageError
UnicodeErrors parse_unicode_errors(std::string_view name);

struct OpenOptions {
  std::optional<Format> format;  // nullopt: detect from content
  DType dtype = DType::f32;      // storage type of the loaded table
  std::size_t limit = 0;         // read only the first N rows (0: all)
  std::string tensor;            // safetensors, GGUF: tensor name (empty: conventional names, token_embd.weight)
  // safetensors, with no tensor named: read the checkpoint's output head W (lm_head.weight, embed_out.weight,
  // output.weight) instead of its input table E; InputError when it has none (a tied checkpoint keeps one table).
  bool output_head = false;
  std::string vocab_path;  // npy: one token per line (empty: rows named by id)
  UnicodeErrors unicode_errors = UnicodeErrors::strict;
  std::size_t threads = 0;  // text parsing threads (0: lumen::default_threads())
  // Text tables: keep the parsed table in this directory as a mapped binary with a fingerprint of the source, and
  // map it on later opens (empty: no cache). Stale or damaged entries are rebuilt; an unwritable directory
  // leaves a warning in LoadReport::warnings and the table parsed as usual.
  std::string cache_dir;
};

// What happened while reading, beyond the table itself (for `lumen info` and warnings).
struct LoadReport {
  std::size_t rows_read = 0;          // rows parsed from the file (before duplicates were dropped)
  std::size_t duplicates = 0;         // rows dropped because the same word came earlier (the first is kept)
  std::string first_duplicate;        // the first such word
  std::size_t repaired_tokens = 0;    // tokens whose invalid UTF-8 was replaced or dropped (--unicode-errors)
  bool mapped = false;                // E borrows the memory-mapped file (nothing copied)
  std::uint64_t file_bytes = 0;       // size of the file read
  std::optional<DType> file_dtype;    // how the values are stored in the file (nullopt: decimal text)
  std::string tensor;                 // safetensors, GGUF: the tensor read
  std::string quantisation;           // GGUF: the ggml type of quantised rows ("Q8_0", "Q4_K", ...); else empty
  bool from_cache = false;            // mapped from an entry of OpenOptions::cache_dir instead of parsed
  std::vector<std::string> warnings;  // what the caller should tell the user (e.g. the cache was not written)
};

// How the values are stored in the file: "f32", "f16", "bf16", a ggml quantisation ("Q8_0", ...), or "text".
std::string file_type_name(const LoadReport& report);

// Detects the format from the first bytes of the file (and its size), not its extension.
Format detect_format(const std::string& path);

// Opens a table (a fastText model's table keeps the model, for words outside the vocabulary: Table::subwords).
// Throws ParseError (file, line or byte offset, what was expected) or IoError.
Table open_table(const std::string& path, const OpenOptions& options = {});
// The same, also saying what was dropped or repaired on the way.
Table open_table(const std::string& path, const OpenOptions& options, LoadReport& report);
// Reads a table from bytes in memory (`name` is used in messages); the result owns its data. A fastText model's
// subword vectors are not kept (they would read the caller's bytes): Table::subwords is null.
Table open_table_bytes(std::string_view bytes, const std::string& name, const OpenOptions& options, LoadReport& report);

}  // namespace lumen::io
