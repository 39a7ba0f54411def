// Text tables: word2vec text (header "rows dim", fastText .vec too), GloVe (no header; d from the first row)
// and the Embedding Projector's vectors.tsv (values only, tab-separated). Parsed in one parallel pass over the
// file (TextPass), each thread reading copies of a chunk at a time (TextCopy); values are read as double and
// rounded to float, as gensim does.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fmt/format.h>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "io/parse_float_fast.hpp"
#include "io/readers.hpp"
#include "io/text_row_kernels.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/io/parse_float.hpp"

namespace lumen::io::detail {

namespace {

using text_row_kernels::kRowScanPadding;

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_sep(char c) { return c == ' ' || c == '\t'; }

struct RowError {
  std::uint64_t row = 0;
  std::size_t column = 0;  // byte offset in the line (in the file, once the row is placed)
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

// The common row in one forward pass, which also finds where the line ends (no separate search for the newline,
// which would read the text from memory once more): a word, then dim values each after separators, then blanks
// up to '\n' or the end of the text (`last`). Returns the row's end ('\n' or last), or nullptr for anything else,
// for which parse_row (given the line) says what is wrong. The values are parse_row's, bit for bit: a number
// cannot run on past the line (what follows it there is a blank or the newline).
const char* scan_row(const char* s, const char* last, bool has_word, std::size_t dim, float* out,
                     std::string_view& word) {
  const char* p = s;
  if (has_word) {
    while (p < last && !is_sep(*p) && *p != '\n') ++p;
    if (p == s) return nullptr;
    word = std::string_view(s, static_cast<std::size_t>(p - s));
  }
  for (std::size_t k = 0; k < dim; ++k) {
    const char* before = p;
    while (p < last && is_sep(*p)) ++p;
    if (p == last || ((has_word || k > 0) && p == before)) return nullptr;
    __builtin_prefetch(p + 1024);
    const char* q = parse_float_inline(p, last, out[k]);
    if (q == nullptr || (q < last && !is_sep(*q) && *q != '\n' && *q != '\r')) return nullptr;
    p = q;
  }
  while (p < last && is_space(*p)) ++p;
  return p == last || *p == '\n' ? p : nullptr;
}

// scan_row for the common row (a word, then values such as "-0.123456" after single spaces, then '\n'), its values
// found a block at a time by the dispatched scanner (text_row_kernel_table.hpp); nullptr for any other row, which
// scan_row then reads. `last` must have kRowScanPadding readable bytes after it.
const char* scan_row_fast(const text_row_kernels::Table& kernels, const char* s, const char* last, std::size_t dim,
                          float* out, std::string_view& word) {
  const char* p = s;
  while (p < last && !is_sep(*p) && *p != '\n') ++p;
  if (p == s || p == last || *p != ' ') return nullptr;
  word = std::string_view(s, static_cast<std::size_t>(p - s));
  return kernels.scan_values(p, last, dim, out);
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

// The text is read in slices on a grid of kSliceBytes from the start of the file (page-aligned), taken in order;
// a row belongs to the slice it starts in. With one thread, rows are parsed straight into E. With more, each
// thread takes the next slice when it is free and parses its rows into E if the slices before it are counted (its
// first row's number is known), else into rows of its own, counted, and copied into place once the slices
// before it are counted (TextPass::run). Each thread reads its slices through a copy of a chunk at a time
// (TextCopy), so the text is read once and loading holds at most threads x kChunkBytes of it (the map's pages are
// touched only for the header, the first row and an error's line).
constexpr std::size_t kSliceBytes = 4 << 20;

// A thread's copy of the text it parses, a chunk at a time (MappedFile::read: faster than reading the map's pages
// in place, and a chunk this size stays in the core's L2 cache while it is parsed; 64 kB-1 MB measured within 5% of
// each other, 32 kB and 4 MB slower). Holds the file's bytes from `at` on; rows are parsed only up to `end`, the
// copy's last '\n' (or the end of the text), so a row never runs past the copy: a row longer than the chunk grows it.
constexpr std::size_t kChunkBytes = 256 << 10;
struct TextCopy {
  std::unique_ptr<char[]> bytes;
  std::size_t capacity = 0;
  std::uint64_t at = 0;  // the file offset of bytes[0]
  std::size_t size = 0;  // bytes copied
  std::size_t end = 0;   // bytes[end] is '\n', or end == size is where the text ends
};

// What one thread parsed: its rows' words (copied out) and starts, in order, and its first error (row: the row's
// number in the table).
struct SliceRows {
  struct Row {
    std::uint64_t index = 0, at = 0, word_at = 0, word_len = 0;  // at: the row's byte offset in the file
  };
  std::string arena;
  std::vector<Row> rows;
  std::optional<RowError> error;
  std::optional<RowError> pending;  // the first error of the slice in hand, numbered from the slice's first row
  std::vector<float> buf;           // one row in f32 when E is stored narrower
  TextCopy text;
};

class TextPass {
 public:
  // The rows are the lines starting in [text, last); `want`: rows needed (those after are counted, not parsed).
  // `count_after_error`: go on counting rows after an error (a word2vec header's promise is checked first).
  TextPass(const MappedFile& file, const char* text, const char* last, bool has_word, std::size_t dim,
           std::uint64_t want, bool count_after_error, Matrix& E)
      : file_(file),
        base_(file.data()),
        text_(text),
        last_(last),
        has_word_(has_word),
        dim_(dim),
        out_(E.mutable_data()),
        row_bytes_(E.row_bytes()),
        capacity_(E.rows()),
        min_len_(has_word ? 2 * dim + 1 : 2 * dim - 1),
        dtype_(E.dtype()),
        stop_(want),
        want_(want),
        count_after_error_(count_after_error) {}

  // Rows starting in [a, b): a if it starts a line, and one after each '\n' before b - 1.
  std::uint64_t count(const char* a, const char* b) const {
    if (a >= b) return 0;
    std::uint64_t n = a == text_ || a[-1] == '\n' ? 1 : 0;
    for (const char* q = a; q < b - 1; ++n) {
      q = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(b - 1 - q)));
      if (q == nullptr) break;
      ++q;
    }
    return n;
  }

  // Parses the rows starting in [a, b), the first numbered `index`, into `rows` (row i at rows + i * row bytes, for
  // i below `capacity`); rows from the first error on are only counted. `shared`: the numbers are the table's, and
  // rows at or past min(want, the first error any thread found) are only counted too; else they count from the
  // slice's first row, and its first error waits in out.pending for the slice's place in the table. Returns how
  // many rows start there. The text is read through out.text (a, b and the rows' ends are places in the map; only
  // their offsets are used).
  std::uint64_t parse(const char* a, const char* b, std::uint64_t index, std::byte* rows, std::uint64_t capacity,
                      bool shared, SliceRows& out) {
    const std::uint64_t first = index;
    TextCopy& t = out.text;
    const auto last = static_cast<std::uint64_t>(last_ - base_);
    std::uint64_t q = static_cast<std::uint64_t>(a - base_);  // the next row's offset
    const auto stop = static_cast<std::uint64_t>(b - base_);
    if (q < stop && a != text_) {  // a row that starts before a belongs to the slice before
      copy_from(t, q - 1, stop);
      const char* nl = static_cast<const char*>(std::memchr(t.bytes.get(), '\n', t.size));
      q = nl != nullptr ? t.at + static_cast<std::uint64_t>(nl - t.bytes.get()) + 1 : t.at + t.end;
    }
    const DType dtype = dtype_;
    if (dtype != DType::f32) out.buf.resize(dim_);
    std::uint64_t limit = capacity;
    for (; q < stop; ++index) {
      if (t.bytes == nullptr || q < t.at || q > t.at + t.end) copy_from(t, q, stop);
      const char* s = t.bytes.get() + (q - t.at);
      const char* tend = t.bytes.get() + t.end;  // '\n' or the text's end: no row starting at s runs past it
      const char* e = nullptr;                   // the row's end ('\n' or tend)
      const auto line_end = [&] {
        const char* nl = static_cast<const char*>(std::memchr(s, '\n', static_cast<std::size_t>(tend - s)));
        return nl != nullptr ? nl : tend;
      };
      // A row past the capacity (sized by the shortest valid row) comes after a short row, an error found first.
      if (index < (shared ? std::min(limit, stop_.load(std::memory_order_relaxed)) : limit)) {
        std::byte* row = rows + index * row_bytes_;
        float* dst = dtype == DType::f32 ? reinterpret_cast<float*>(row) : out.buf.data();
        std::string_view word;
        if (has_word_) e = scan_row_fast(kernels_, s, tend, dim_, dst, word);
        if (e == nullptr) e = scan_row(s, tend, has_word_, dim_, dst, word);
        std::optional<RowError> err;
        if (e == nullptr) e = line_end(), err = parse_row(s, e, has_word_, dim_, dst, word);
        if (err) {
          err->row = index;
          err->column += q;
          limit = index;
          if (shared) lower_stop(index), out.error = std::move(err);
          else out.pending = std::move(err);
        } else {
          if (has_word_) {
            out.rows.push_back({index, q, out.arena.size(), word.size()});
            out.arena += word;
          }
          if (dtype != DType::f32) {
            auto* d16 = reinterpret_cast<std::uint16_t*>(row);
            for (std::size_t k = 0; k < dim_; ++k)
              d16[k] = dtype == DType::f16 ? f32_to_f16(dst[k]) : f32_to_bf16(dst[k]);
          }
        }
      }
      if (e == nullptr) e = line_end();
      q = t.at + static_cast<std::uint64_t>(e - t.bytes.get());
      q = q < last ? q + 1 : last;
    }
    return index - first;
  }

  // Copies the text from offset `from` into t: a chunk, or less where the slice ends at `stop` (its last row's
  // tail, a few kB, is read and not the next slice's rows), cut after its last '\n'; grown until it holds one or
  // the text's end.
  void copy_from(TextCopy& t, std::uint64_t from, std::uint64_t stop) const {
    const auto last = static_cast<std::uint64_t>(last_ - base_);
    if (t.capacity == 0) t.capacity = kChunkBytes;
    std::uint64_t tail = 4096;
    while (true) {
      if (t.bytes == nullptr) t.bytes = std::make_unique_for_overwrite<char[]>(t.capacity + kRowScanPadding);
      const std::uint64_t ahead = (stop > from ? stop - from : 0) + tail;
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>({t.capacity, last - from, ahead}));
      file_.read(static_cast<std::size_t>(from), t.bytes.get(), n);
      std::memset(t.bytes.get() + n, 0, kRowScanPadding);  // (no text: no separator, digit or newline)
      t.at = from, t.size = n;
      if (from + n == last) {
        t.end = n;
        return;
      }
      if (const auto* nl = static_cast<const char*>(::memrchr(t.bytes.get(), '\n', n)); nl != nullptr) {
        t.end = static_cast<std::size_t>(nl - t.bytes.get());
        return;
      }
      tail *= 2;
      if (n == t.capacity) t.capacity *= 2, t.bytes.reset();  // a row longer than the chunk
    }
  }

  // Gives a slice parsed apart (parse with shared = false) its place: `parsed` rows found, the first numbered
  // `first` in the table, whose rows [since, until) in out.rows it renumbers; copies them into E (those below want
  // and before the slice's own first error) and makes that error the table's.
  void place(std::uint64_t first, std::uint64_t parsed, const std::byte* staged, std::size_t since, std::size_t until,
             SliceRows& out) {
    for (std::size_t i = since; i < until; ++i) out.rows[i].index += first;
    std::uint64_t keep = parsed;
    if (out.pending) {
      keep = out.pending->row;
      out.pending->row += first;
      if (out.pending->row < want_) {  // (a row past want is not a row of the table)
        lower_stop(out.pending->row);
        if (!out.error) out.error = std::move(out.pending);
      }
      out.pending.reset();
    }
    const std::uint64_t room = std::min(want_, capacity_);
    keep = first < room ? std::min(keep, room - first) : 0;
    if (keep > 0) std::memcpy(out_ + first * row_bytes_, staged, keep * row_bytes_);
  }

  // Reads every slice with `threads` threads; returns the rows in the text (counted up to `want` at least).
  std::uint64_t run(std::size_t threads, std::vector<SliceRows>& found) {
    const auto from = static_cast<std::size_t>(text_ - base_), to = static_cast<std::size_t>(last_ - base_);
    // Small texts in smaller slices, so that every thread gets one (a multiple of 64 kB keeps the grid on pages).
    const std::size_t slice =
        std::clamp<std::size_t>(((to - from) / threads + (1 << 16) - 1) >> 16 << 16, 1 << 16, kSliceBytes);
    const std::size_t first_slice = from / slice, slices = (to + slice - 1) / slice - first_slice;
    const auto bounds = [&](std::size_t m) {  // slice m's text: its grid range within [text, last)
      const std::size_t lo = std::max(m * slice, from), hi = std::min((m + 1) * slice, to);
      return std::pair{base_ + lo, base_ + std::max(lo, hi)};
    };
    found.clear();
    found.resize(threads);
    if (threads == 1) {
      std::uint64_t rows = 0;
      for (std::size_t m = first_slice; m < first_slice + slices && rows < want_ && going(); ++m) {
        const auto [a, b] = bounds(m);
        rows += parse(a, b, rows, out_, capacity_, true, found[0]);
      }
      return rows;
    }
    // Slices are taken in turn by whichever thread is free, so that a faster core takes more of them (on a VM one
    // core can run a third slower than the other, and a fixed share per thread would wait for it). A slice whose
    // first row's number is known when it is taken (every slice before it counted) is parsed straight into E;
    // any other into one of its taker's buffers (at most slice / min_len + 2 rows), held until the slices before it
    // are counted, then copied into place. A thread holds at most kHeld buffers: loading holds a bounded amount of
    // staged rows, and the text is read once, while it is parsed (counting the rows first would read it twice).
    constexpr std::size_t kHeld = 3;
    const std::size_t staged_rows = slice / min_len_ + 2, end = first_slice + slices;
    struct Held {
      std::size_t m = 0;                 // the slice
      std::uint64_t count = 0;           // its rows
      std::size_t since = 0, until = 0;  // its rows' words in the taker's found rows
      std::optional<RowError> pending;   // its first error, numbered from its first row
      std::unique_ptr<std::byte[]> rows;
    };
    // Under mu: slices below `front` are counted, `rows` rows in all; firsts[m - first_slice] numbers slice m's
    // first row once it is counted.
    std::mutex mu;
    std::condition_variable numbered;
    std::size_t next = first_slice, front = first_slice;
    std::uint64_t rows = 0;
    std::vector<std::uint64_t> counts(slices), firsts(slices);
    std::vector<char> parsed(slices), erred(slices);
    bool errors = false, failed = false;
    std::exception_ptr error;
    // No exception may leave a thread (the others could wait for its slice): the first is kept, every thread stops
    // taking slices, and it is rethrown.
    const auto guarded = [&](auto&& step) {
      try {
        step();
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
        failed = true;
      }
    };
    const auto done = [&] {  // (under mu) no more slices to take
      return next >= end || rows >= want_ || failed || (errors && !count_after_error_) || !going();
    };
    parallel_for(threads, threads, [&](std::size_t k, std::size_t, std::size_t) {
      SliceRows& out = found[k];
      std::vector<Held> held;  // in the order taken, which is the order they are numbered in
      std::vector<std::unique_ptr<std::byte[]>> spare;
      std::size_t buffers = 0;
      guarded([&] { held.reserve(kHeld), spare.reserve(kHeld); });
      std::unique_lock lock(mu);
      while (!failed) {
        // Place the held slices now numbered.
        if (!held.empty() && held.front().m < front) {
          Held h = std::move(held.front());
          held.erase(held.begin());
          const std::uint64_t first = firsts[h.m - first_slice];
          lock.unlock();
          out.pending = std::move(h.pending);
          guarded([&] { place(first, h.count, h.rows.get(), h.since, h.until, out); });
          spare.push_back(std::move(h.rows));
          lock.lock();
          continue;
        }
        const bool direct = next == front, count_only = rows >= stop_.load();
        if (done() || (!direct && !count_only && spare.empty() && buffers == kHeld)) {
          if (held.empty()) break;
          numbered.wait(lock, [&] { return failed || held.front().m < front; });
          continue;
        }
        const std::size_t m = next++;
        const std::uint64_t first = rows;  // slice m's first row, if direct
        lock.unlock();
        const char* a = nullptr;
        const char* b = nullptr;
        std::tie(a, b) = bounds(m);  // (not a structured binding: clang 14 cannot capture one)
        Held h{m, 0, out.rows.size(), 0, std::nullopt, nullptr};
        guarded([&] {
          // After an error in the slices counted, rows are only counted.
          if (count_only) {
            h.count = count(a, b);
          } else if (direct) {
            h.count = parse(a, b, first, out_, capacity_, true, out);
          } else {
            if (spare.empty())
              spare.push_back(std::make_unique_for_overwrite<std::byte[]>(staged_rows * row_bytes_)), ++buffers;
            h.rows = std::move(spare.back());
            spare.pop_back();
            h.count = parse(a, b, 0, h.rows.get(), staged_rows, false, out);
            h.pending = std::move(out.pending);
            out.pending.reset();
          }
        });
        h.until = out.rows.size();
        lock.lock();
        const std::size_t i = m - first_slice;
        counts[i] = h.count, parsed[i] = 1, erred[i] = h.pending.has_value() ? 1 : 0;
        if (h.rows != nullptr) held.push_back(std::move(h));
        for (; front < end && parsed[front - first_slice] != 0; ++front) {
          firsts[front - first_slice] = rows;
          rows += counts[front - first_slice];
          errors |= erred[front - first_slice] != 0;
        }
        numbered.notify_all();
      }
      numbered.notify_all();  // (a failure: the others stop waiting)
    });
    if (error) std::rethrow_exception(error);
    return rows;
  }

 private:
  // False once an error is found, unless the rows after it are still to be counted.
  bool going() const { return count_after_error_ || stop_.load() == want_; }
  void lower_stop(std::uint64_t row) {
    for (auto seen = stop_.load(); row < seen && !stop_.compare_exchange_weak(seen, row);) {
    }
  }

  const MappedFile& file_;
  const text_row_kernels::Table& kernels_ = text_row_kernels::active();
  const char* base_;
  const char* text_;
  const char* last_;
  bool has_word_;
  std::size_t dim_;
  std::byte* out_;  // E (capacity_ rows of row_bytes_)
  std::size_t row_bytes_, capacity_, min_len_;
  DType dtype_;
  std::atomic<std::uint64_t> stop_;  // rows from here on are counted, not parsed: min(want, first error's row)
  std::uint64_t want_;
  bool count_after_error_;
};

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

  // The rows are the lines from p up to the last one holding anything but blanks (trailing blank lines end the
  // table; blank lines before that are rows, and errors).
  const char* last = end;
  while (last > p && (is_space(last[-1]) || last[-1] == '\n')) --last;
  if (format != Format::word2vec_text) {
    if (p == last) throw ParseError(name, 1, 0, "no rows; expected a table (a word and its values per line)");
    const char* le = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(last - p)));
    const std::size_t fields = count_fields(p, le != nullptr ? le : last);
    dim = has_word ? (fields > 0 ? fields - 1 : 0) : fields;
    if (dim == 0)
      throw ParseError(name, first_line, 0,
                       has_word ? "expected a word followed by its values (the row length sets d)"
                                : "expected tab-separated values");
  }

  // E is sized before the rows are counted, by what the text can hold: a valid row takes at least min_len bytes
  // with its newline (a word, then a space and a digit per value), so n*d stays within the file's size whatever
  // the header or a GloVe first row claims. Not zero-filled: each row is written by the thread that parses it
  // (the kernel's first-touch zeroing of fresh pages is shared among the threads), pages past the rows found are
  // never touched, and E is trimmed to the rows found.
  const std::size_t min_len = has_word ? 2 * dim + 1 : 2 * dim - 1;
  const auto bytes = static_cast<std::uint64_t>(last - p);
  const DType dtype = cx.options.dtype;
  Matrix E = Matrix::uninitialized(static_cast<std::size_t>(std::min<std::uint64_t>(want, (bytes + 1) / min_len + 1)),
                                   dim, dtype);
  std::size_t threads = cx.options.threads != 0 ? cx.options.threads : default_threads();
  if (cx.options.limit != 0 || bytes < (std::uint64_t{1} << 20)) threads = 1;
  TextPass pass(*cx.file, p, last, has_word, dim, want, format == Format::word2vec_text, E);
  std::vector<SliceRows> found;
  const std::uint64_t counted = pass.run(threads, found);
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(counted, want));

  if (format == Format::word2vec_text && n < want) {
    const char* ls = n == 0 ? p : last;  // the last row's start
    while (ls > p && ls[-1] != '\n') --ls;
    if (n > 0 && std::memchr(ls, '\n', static_cast<std::size_t>(end - ls)) == nullptr) {
      // Cut inside the last row (no newline ends it): name that line, with the row's own complaint if it has one.
      std::vector<float> tmp(dim);
      std::string_view word;
      const auto err = parse_row(ls, end, true, dim, tmp.data(), word);
      throw ParseError(name, first_line + n - 1, static_cast<std::uint64_t>(ls - base) + (err ? err->column : 0),
                       fmt::format("{}the file ends inside this line: the header promises {} rows, the file has {} "
                                   "(truncated?)",
                                   err ? err->what + "; " : std::string(), want, n));
    }
    throw ParseError(
        name, first_line + n, static_cast<std::uint64_t>(end - base),
        fmt::format("unexpected end of file: the header promises {} rows, the file has {}{}", want, n,
                    want > static_cast<std::size_t>(end - base) ? " (the header or the file is wrong)" : ""));
  }
  const RowError* first_error = nullptr;
  for (const auto& f : found)
    if (f.error && (first_error == nullptr || f.error->row < first_error->row)) first_error = &*f.error;
  if (first_error != nullptr)
    throw ParseError(name, first_line + first_error->row, first_error->column, first_error->what);
  E.keep_rows(n);
  if (!has_word) {
    cx.report.rows_read = n;
    Table t;
    t.E = std::move(E);
    return t;  // the caller names the rows (metadata.tsv or ids)
  }
  std::vector<std::string_view> words(n);
  std::vector<std::uint64_t> at(n);
  for (const auto& f : found)
    for (const auto& r : f.rows) {
      if (r.index >= n) continue;  // (none: rows are parsed only below min(want, rows counted))
      words[r.index] = std::string_view(f.arena).substr(r.word_at, r.word_len);
      at[r.index] = r.at;
    }
  return assemble(words, std::move(E), cx, [&](std::size_t i) { return Location{first_line + i, at[i]}; });
}

}  // namespace lumen::io::detail
