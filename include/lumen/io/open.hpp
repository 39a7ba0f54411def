#pragma once
// Opening a table from a file of any supported format (detected from the content, or named).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "lumen/core/dtype.hpp"
#include "lumen/core/table.hpp"

namespace lumen::io {

enum class Format { word2vec_text, word2vec_binary, glove, fasttext_bin, safetensors, npy, projector_tsv };
enum class UnicodeErrors { strict, replace, ignore };

std::string_view format_name(Format f);
Format parse_format(std::string_view name);  // throws UsageError
UnicodeErrors parse_unicode_errors(std::string_view name);

struct OpenOptions {
  std::optional<Format> format;   // nullopt: detect from content
  DType dtype = DType::f32;       // storage type of the loaded table
  std::size_t limit = 0;          // read only the first N rows (0: all)
  std::string tensor;             // safetensors: tensor name (empty: conventional names)
  std::string vocab_path;         // npy: one token per line (empty: rows named by id)
  UnicodeErrors unicode_errors = UnicodeErrors::strict;
};

// Detects the format from the first bytes of the file (and its size), not its extension.
Format detect_format(const std::string& path);

// Opens a table. Throws ParseError (file, line or byte offset, what was expected) or IoError.
Table open_table(const std::string& path, const OpenOptions& options = {});

}  // namespace lumen::io
