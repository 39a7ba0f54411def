#pragma once
// The readers behind io::open_table, one per format (one file each), and what they share.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/mapped_file.hpp"
#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io::detail {

// One read: the mapped file, the caller's options, and the report the reader fills in.
struct ReadContext {
  std::shared_ptr<const MappedFile> file;
  const OpenOptions& options;
  LoadReport& report;
  const std::string& name() const { return file->path(); }
};

Table read_text(const ReadContext& cx, Format format);  // word2vec_text, glove, projector_tsv
Table read_word2vec_binary(const ReadContext& cx);
Table read_fasttext_bin(const ReadContext& cx);
Table read_safetensors(const ReadContext& cx);
Table read_npy(const ReadContext& cx);
Table read_gguf(const ReadContext& cx);

// The format of a file whose content is `bytes` (all of it, or at least its first few KB and `size`).
Format detect(std::string_view bytes, std::size_t size, const std::string& name);

// A token read from the file, checked or repaired as options.unicode_errors says (line or byte offset for errors).
std::string clean_token(std::string_view raw, const ReadContext& cx, std::uint64_t line, std::uint64_t offset);
// Builds the table from words (row order) and E, dropping rows whose word came earlier (the first is kept).
// where(i) gives row i's line (1-based; 0 if none) and byte offset, for error messages.
struct Location {
  std::uint64_t line = 0, offset = 0;
};
Table assemble(const std::vector<std::string_view>& words, Matrix E, const ReadContext& cx,
               const std::function<Location(std::size_t)>& where);
// One token per line (trailing '\r' removed): the first `rows`; the file must have rows_in_file lines
// (0: at least `rows`, when the table's full length is unknown).
std::vector<std::string> read_vocab_file(const std::string& path, std::size_t rows, std::size_t rows_in_file,
                                         const ReadContext& cx);
// Rows kept when the file holds `rows` and options.limit is set (gensim's limit: the first N).
std::size_t limited(std::size_t rows, std::size_t limit);
// E (V,d) of file dtype `from` at `data`, as the table's storage type: borrowed from the map when the types agree
// and the data is aligned, else converted into owned memory.
Matrix view_or_convert(const ReadContext& cx, const void* data, std::size_t rows, std::size_t cols, DType from);

}  // namespace lumen::io::detail
