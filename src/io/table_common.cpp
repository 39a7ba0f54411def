// What the readers share: token checking, duplicate handling, vocabulary files, storage types.
#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "io/readers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/utf8.hpp"

namespace lumen::io::detail {

std::string clean_token(std::string_view raw, const ReadContext& cx, std::uint64_t line, std::uint64_t offset) {
  const std::size_t bad = utf8_invalid_at(raw);
  if (bad == std::string_view::npos) return std::string(raw);
  switch (cx.options.unicode_errors) {
    case UnicodeErrors::strict:
      throw ParseError(cx.name(), line, offset + bad,
                       OptionText{fmt::format("invalid UTF-8 in a word (byte {} of it, byte offset {}); expected "
                                              "UTF-8 text (use {{unicode_errors}} replace or ignore to repair it)",
                                              bad, offset + bad),
                                  {"unicode_errors"}});
    case UnicodeErrors::replace: ++cx.report.repaired_tokens; return utf8_repair(raw, true);
    case UnicodeErrors::ignore: ++cx.report.repaired_tokens; return utf8_repair(raw, false);
  }
  return std::string(raw);
}

Table assemble(const std::vector<std::string_view>& words, Matrix E, const ReadContext& cx,
               const std::function<Location(std::size_t)>& where) {
  Table t;
  const std::size_t n = words.size();
  cx.report.rows_read = n;
  t.vocab.reserve(n);
  std::vector<std::size_t> kept;  // filled only once a duplicate shows up
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<Id> added;
    std::string token;
    if (utf8_invalid_at(words[i]) == std::string_view::npos) {
      added = t.vocab.add(std::string(words[i]));  // moved in: no second copy
      if (!added) token.assign(words[i]);
    } else {
      const Location at = where(i);
      token = clean_token(words[i], cx, at.line, at.offset);
      added = t.vocab.add(token);
    }
    if (!added) {
      if (cx.report.duplicates == 0) {
        cx.report.first_duplicate = token;
        kept.reserve(n);
        for (std::size_t j = 0; j < i; ++j) kept.push_back(j);
      }
      ++cx.report.duplicates;
    } else if (cx.report.duplicates != 0) {
      kept.push_back(i);
    }
  }
  if (cx.report.duplicates != 0) {                                       // compact E to the kept rows
    Matrix K = Matrix::uninitialized(kept.size(), E.cols(), E.dtype());  // every row copied below
    std::byte* dst = K.mutable_data();
    for (std::size_t r = 0; r < kept.size(); ++r)
      std::memcpy(dst + r * K.row_bytes(), E.row_ptr(kept[r]), K.row_bytes());
    E = std::move(K);
  }
  t.E = std::move(E);
  return t;
}

std::vector<std::string> read_vocab_file(const std::string& path, std::size_t rows, std::size_t rows_in_file,
                                         const ReadContext& cx) {
  // Mapped like a table (a FIFO or a directory is refused at once, never waited on).
  const auto file = MappedFile::open(path);
  const ReadContext vc{MappedFile::over({}, path), cx.options, cx.report};
  std::vector<std::string> out;
  out.reserve(std::min<std::size_t>(rows, file->size()));
  const std::string_view all = file->view();
  std::uint64_t n = 0;
  for (std::size_t p = 0; p < all.size();) {  // lines as std::getline sees them: a last line needs no '\n'
    std::size_t e = all.find('\n', p);
    if (e == std::string_view::npos) e = all.size();
    std::string_view line = all.substr(p, e - p);
    ++n;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (out.size() < rows) out.push_back(clean_token(line, vc, n, p));
    p = e + 1;
  }
  // rows_in_file 0: the table's full length is unknown (a limited read): at least `rows` lines are needed.
  if (rows_in_file != 0 ? n != rows_in_file : n < rows)
    throw ParseError(path, n, 0,
                     fmt::format("vocabulary file has {} lines; expected one token per row of {} ({} rows)", n,
                                 cx.name(), rows_in_file != 0 ? rows_in_file : rows));
  return out;
}

std::size_t limited(std::size_t rows, std::size_t limit) { return limit != 0 && limit < rows ? limit : rows; }

Matrix view_or_convert(const ReadContext& cx, const void* data, std::size_t rows, std::size_t cols, DType from) {
  const DType to = cx.options.dtype;
  cx.report.file_dtype = from;
  const bool aligned = reinterpret_cast<std::uintptr_t>(data) % dtype_size(from) == 0;
  Matrix view;
  if (aligned) {
    view = Matrix::borrow(data, rows, cols, from, cx.file);
  } else {  // misaligned in the file: copy out first (never read a float through a misaligned pointer)
    Matrix copy(rows, cols, from);
    if (copy.bytes() != 0) std::memcpy(copy.mutable_data(), data, copy.bytes());
    view = std::move(copy);
  }
  if (from == to) {
    cx.report.mapped = !view.owned();
    return view;
  }
  return view.to(to);
}

}  // namespace lumen::io::detail
