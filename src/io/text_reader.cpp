// Text tables: word2vec text (header "rows dim", fastText .vec too), GloVe (no header; d from the first row)
// and the Embedding Projector's vectors.tsv (values only, tab-separated). Parsed in place from the mapped file,
// in parallel over line ranges; values are read as double and rounded to float, as gensim does.
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <optional>

#include "io/parse_float_fast.hpp"
#include "io/readers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/io/parse_float.hpp"

namespace lumen::io::detail {

namespace {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_sep(char c) { return c == ' ' || c == '\t'; }

struct RowError {
  std::uint64_t row = 0;
  std::size_t column = 0;  // byte offset in the line
  std::string what;
};

// One row: [word] then dim values, separated by spaces or tabs, trailing whitespace ignored.
std::optional<RowError> parse_row(const char* s, const char* e, bool has_word, std::size_t dim, float* out,
                                  std::string_view& word) {
  const char* b = s;
  while (e > s && is_space(e[-1])) --e;
  const char* p = s;
  if (has_word) {
    while (p < e && !is_sep(*p)) ++p;
    word = std::string_view(s, static_cast<std::size_t>(p - s));
    if (word.empty())
      return RowError{0, 0,
                      fmt::format("expected a word followed by {} values, got {}", dim,
                                  p == e ? "an empty line" : "a leading space")};
  }
  for (std::size_t k = 0; k < dim; ++k) {
    const char* before = p;
    while (p < e && is_sep(*p)) ++p;
    if (p == e)
      return RowError{0, static_cast<std::size_t>(p - b),
                      fmt::format("expected {} values{}, found {}", dim, has_word ? " after the word" : "", k)};
    if ((has_word || k > 0) && p == before)
      return RowError{0, static_cast<std::size_t>(p - b), fmt::format("expected a space before value {}", k + 1)};
    const char* q = parse_float_inline(p, e, out[k]);
    if (q == nullptr || (q < e && !is_sep(*q))) {
      const char* t = p;
      while (t < e && !is_sep(*t)) ++t;
      return RowError{0, static_cast<std::size_t>(p - b),
                      fmt::format("expected a number for value {} of {}, got '{}'", k + 1, dim,
                                  std::string_view(p, std::min<std::size_t>(static_cast<std::size_t>(t - p), 40)))};
    }
    p = q;
  }
  while (p < e && is_sep(*p)) ++p;
  if (p != e) {
    std::size_t extra = 0;
    for (const char* t = p; t < e;) {
      ++extra;
      while (t < e && !is_sep(*t)) ++t;
      while (t < e && is_sep(*t)) ++t;
    }
    return RowError{0, static_cast<std::size_t>(p - b),
                    fmt::format("expected {} values{}, found {}", dim, has_word ? " after the word" : "", dim + extra)};
  }
  return std::nullopt;
}

// Parses a non-negative decimal integer at p (after spaces); nullopt if none or it overflows.
std::optional<std::uint64_t> parse_count(const char*& p, const char* e) {
  while (p < e && is_space(*p)) ++p;
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(p, e, v);
  if (ec != std::errc() || (ptr < e && !is_space(*ptr))) return std::nullopt;
  p = ptr;
  return v;
}

bool blank(const char* s, const char* e) {
  for (; s < e; ++s)
    if (!is_space(*s) && *s != '\n') return false;
  return true;
}

std::size_t count_fields(const char* s, const char* e) {
  while (e > s && is_space(e[-1])) --e;
  std::size_t n = 0;
  const char* p = s;
  while (p < e) {
    while (p < e && is_sep(*p)) ++p;
    if (p == e) break;
    ++n;
    while (p < e && !is_sep(*p)) ++p;
  }
  return n;
}

// Where the rows start: every line from p up to the last one holding anything but blanks (trailing blank lines
// end the table; blank lines before that are rows, and errors), at most `want` of them. A large file is scanned
// in parallel, one byte range per thread, each taking the lines that start in it; `stop_early` (--limit) scans
// serially and stops at `want`.
// Bytes parsed between two releases of the mapped text (MappedFile::release): the buffer loading holds per thread.
constexpr std::ptrdiff_t kReleaseBytes = 8 << 20;

std::vector<const char*> line_starts(const MappedFile& file, const char* p, const char* end, std::size_t want,
                                     std::size_t threads, bool stop_early) {
  const char* last = end;  // one past the last byte that is not blank
  while (last > p && (is_space(last[-1]) || last[-1] == '\n')) --last;
  const auto next_line = [last](const char* q) {
    const char* nl = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(last - q)));
    return nl != nullptr ? nl + 1 : last;
  };
  std::vector<const char*> starts;
  const auto bytes = static_cast<std::size_t>(last - p);
  if (threads <= 1 || stop_early || bytes < (std::size_t{1} << 20)) {
    const char* released = p;
    for (const char* q = p; q < last && starts.size() < want; q = next_line(q)) {
      starts.push_back(q);
      if (q - released > kReleaseBytes) file.release(released, q), released = q;
    }
    file.release(released, starts.empty() ? p : starts.back());
    return starts;  // (with --limit N the scan stops after N rows)
  }
  std::vector<std::vector<const char*>> parts(threads);
  parallel_for(threads, threads, [&](std::size_t lo, std::size_t hi, std::size_t) {
    for (std::size_t k = lo; k < hi; ++k) {
      const char* b = p + bytes / threads * k;
      const char* e = k + 1 == threads ? last : p + bytes / threads * (k + 1);
      const char* q = b == p || b[-1] == '\n' ? b : next_line(b);
      for (const char* released = q; q < e; q = next_line(q)) {
        parts[k].push_back(q);
        if (q - released > kReleaseBytes) file.release(released, q), released = q;
      }
      file.release(b, std::min(q, e));
    }
  });
  std::size_t total = 0;
  for (const auto& part : parts) total += part.size();
  starts.reserve(total);
  for (const auto& part : parts) starts.insert(starts.end(), part.begin(), part.end());
  if (starts.size() > want) starts.resize(want);
  return starts;
}

}  // namespace

Table read_text(const ReadContext& cx, Format format) {
  const std::string& name = cx.name();
  const char* const base = cx.file->data();
  const char* const end = base + cx.file->size();
  if (cx.file->size() == 0) throw ParseError(name, 0, 0, "empty file; expected a table");
  const bool has_word = format != Format::projector_tsv;
  const char* p = base;
  std::uint64_t first_line = 1;  // line number of the first row
  std::size_t want = std::numeric_limits<std::size_t>::max();
  std::size_t dim = 0;

  if (format == Format::word2vec_text) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* he = nl != nullptr ? nl : end;
    const char* q = p;
    auto rows = parse_count(q, he);
    auto d = rows ? parse_count(q, he) : std::nullopt;
    if (!rows || !d || !blank(q, he))
      throw ParseError(name, 1, 0,
                       fmt::format("expected a header line 'rows dim' (two non-negative integers), got '{}'",
                                   std::string_view(p, std::min<std::size_t>(static_cast<std::size_t>(he - p), 60))));
    p = nl != nullptr ? nl + 1 : end;
    first_line = 2;
    const auto rest = static_cast<std::uint64_t>(end - p);
    // An empty table (V = 0 or d = 0) is refused here, as by every reader: nothing downstream can use one.
    if (*d == 0) throw ParseError(name, 1, 0, "header says dim 0; expected dim >= 1");
    if (*rows == 0) throw ParseError(name, 1, 0, "header says 0 rows; expected a table of at least one row");
    // Nothing is allocated from the header's numbers: rows are counted in the file (a claim of 10^12 rows ends
    // in "the file has n"), and d is checked against the bytes there are before any row is sized by it.
    if (*d > rest / 2)
      throw ParseError(name, 1, 0,
                       fmt::format("header claims {} values per row, but only {} bytes follow; the header or the file "
                                   "is wrong",
                                   *d, rest));
    want = static_cast<std::size_t>(*rows);
    dim = static_cast<std::size_t>(*d);
  }
  want = limited(want, cx.options.limit);

  std::size_t threads = cx.options.threads != 0 ? cx.options.threads : default_threads();
  const std::vector<const char*> starts = line_starts(*cx.file, p, end, want, threads, cx.options.limit != 0);
  const std::size_t n = starts.size();
  if (format == Format::word2vec_text && n < want && n > 0 &&
      std::memchr(starts[n - 1], '\n', static_cast<std::size_t>(end - starts[n - 1])) == nullptr) {
    // Cut inside the last row (no newline ends it): name that line, with the row's own complaint if it has one.
    const char* s = starts[n - 1];
    std::vector<float> tmp(dim);
    std::string_view word;
    const auto err = parse_row(s, end, true, dim, tmp.data(), word);
    throw ParseError(name, first_line + n - 1, static_cast<std::uint64_t>(s - base) + (err ? err->column : 0),
                     fmt::format("{}the file ends inside this line: the header promises {} rows, the file has {} "
                                 "(truncated?)",
                                 err ? err->what + "; " : std::string(), want, n));
  }
  if (format == Format::word2vec_text && n < want)
    throw ParseError(
        name, first_line + n, static_cast<std::uint64_t>(end - base),
        fmt::format("unexpected end of file: the header promises {} rows, the file has {}{}", want, n,
                    want > static_cast<std::size_t>(end - base) ? " (the header or the file is wrong)" : ""));
  if (format != Format::word2vec_text) {
    if (n == 0) throw ParseError(name, 1, 0, "no rows; expected a table (a word and its values per line)");
    const char* le = static_cast<const char*>(std::memchr(starts[0], '\n', static_cast<std::size_t>(end - starts[0])));
    const std::size_t fields = count_fields(starts[0], le != nullptr ? le : end);
    dim = has_word ? (fields > 0 ? fields - 1 : 0) : fields;
    if (dim == 0)
      throw ParseError(name, first_line, 0,
                       has_word ? "expected a word followed by its values (the row length sets d)"
                                : "expected tab-separated values");
  }

  // Validate before allocating: a row shorter than d values can hold (a word, then space and digit per value)
  // is an error; finding it now bounds n*d by the file size (a GloVe first row cannot claim a huge d). The error
  // reported is still the file's first: the rows before the short one are parsed (one row of scratch) for theirs.
  const std::size_t min_len = has_word ? 2 * dim + 1 : 2 * dim - 1;
  const auto row_end = [&](std::size_t i) {
    if (i + 1 < n) return starts[i + 1] - 1;  // the '\n' ending row i
    const auto* nl = static_cast<const char*>(std::memchr(starts[i], '\n', static_cast<std::size_t>(end - starts[i])));
    return nl != nullptr ? nl : end;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<std::size_t>(row_end(i) - starts[i]) + 1 >= min_len) continue;
    std::vector<float> tmp(dim);
    std::string_view word;
    for (std::size_t j = 0; j <= i; ++j) {
      auto err = parse_row(starts[j], row_end(j), has_word, dim, tmp.data(), word);
      if (!err && j == i) err = RowError{0, 0, fmt::format("expected {} values", dim)};
      if (err)
        throw ParseError(name, first_line + j, static_cast<std::uint64_t>(starts[j] - base) + err->column, err->what);
    }
  }

  // E (n, d) in the storage type; rows are parsed to f32 then rounded when stored narrower. Not zero-filled: every
  // row is written below (or the table is dropped with the error), each by the thread that parses it, so the
  // kernel's first-touch zeroing of fresh pages is shared among the threads instead of one serial memset.
  const DType dtype = cx.options.dtype;
  Matrix E = Matrix::uninitialized(n, dim, dtype);
  std::byte* out = E.mutable_data();
  std::vector<std::string_view> words(has_word ? n : 0);
  if (n < 2048) threads = 1;
  std::mutex mu;
  std::optional<RowError> first_error;
  // Words are copied out (one arena per thread) so that parsed pages of the map can be released as parsing goes.
  std::vector<std::string> arenas(threads);
  std::vector<std::uint64_t> word_at(has_word ? n : 0);
  parallel_for(n, threads, [&](std::size_t lo, std::size_t hi, std::size_t thread) {
    std::vector<float> buf(dtype == DType::f32 ? 0 : dim);
    std::string& arena = arenas[thread];
    std::size_t released = lo;
    for (std::size_t i = lo; i < hi; ++i) {
      if (starts[i] - starts[released] > kReleaseBytes) cx.file->release(starts[released], starts[i]), released = i;
      const char* s = starts[i];
      const char* e = row_end(i);
      float* dst = dtype == DType::f32 ? reinterpret_cast<float*>(out) + i * dim : buf.data();
      std::string_view word;
      if (auto err = parse_row(s, e, has_word, dim, dst, word)) {
        err->row = i;
        std::lock_guard lock(mu);
        if (!first_error || first_error->row > i) first_error = std::move(err);
        return;  // the rest of this range cannot hold an earlier error
      }
      if (has_word) {
        word_at[i] = arena.size();
        arena += word;
        words[i] = std::string_view(nullptr, word.size());  // pointed into the arena below, once it stops growing
      }
      if (dtype != DType::f32) {
        auto* d16 = reinterpret_cast<std::uint16_t*>(out) + i * dim;
        for (std::size_t k = 0; k < dim; ++k) d16[k] = dtype == DType::f16 ? f32_to_f16(buf[k]) : f32_to_bf16(buf[k]);
      }
    }
    cx.file->release(starts[released], hi < n ? starts[hi] : end);
  });
  if (first_error)
    throw ParseError(name, first_line + first_error->row,
                     static_cast<std::uint64_t>(starts[first_error->row] - base) + first_error->column,
                     first_error->what);

  // Chunk boundaries depend only on n and threads (parallel_for): row i's arena is its chunk's.
  parallel_for(n, threads, [&](std::size_t lo, std::size_t hi, std::size_t thread) {
    for (std::size_t i = lo; i < hi && has_word; ++i)
      words[i] = std::string_view(arenas[thread]).substr(word_at[i], words[i].size());
  });
  if (!has_word) {
    cx.report.rows_read = n;
    Table t;
    t.E = std::move(E);
    return t;  // the caller names the rows (metadata.tsv or ids)
  }
  return assemble(words, std::move(E), cx, [&](std::size_t i) {
    return Location{first_line + i, static_cast<std::uint64_t>(starts[i] - base)};
  });
}

}  // namespace lumen::io::detail
