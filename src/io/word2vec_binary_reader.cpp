// word2vec binary (the original C tool's -binary 1): a header line "rows dim", then per row the word, one
// space and d little-endian float32. Rows are usually newline-separated, but not always: like gensim, a word
// runs up to the next space and leading newlines are dropped from it.
#include <charconv>
#include <cstring>
#include <fmt/format.h>

#include "io/readers.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io::detail {

Table read_word2vec_binary(const ReadContext& cx) {
  const std::string& name = cx.name();
  const char* const base = cx.file->data();
  const std::size_t size = cx.file->size();
  if (size == 0) throw ParseError(name, 0, 0, "empty file; expected a word2vec binary header 'rows dim'");
  const char* nl = static_cast<const char*>(std::memchr(base, '\n', std::min<std::size_t>(size, 256)));
  std::uint64_t rows = 0, dim = 0;
  {
    const std::string header(base,
                             nl != nullptr ? static_cast<std::size_t>(nl - base) : std::min<std::size_t>(size, 64));
    // Two non-negative integers separated by blanks, and nothing else but blanks.
    std::uint64_t r = 0, d = 0;
    const char* p = header.data();
    const char* end = header.data() + header.size();
    auto blanks = [&] {
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    };
    auto number = [&](std::uint64_t& out) {
      blanks();
      const auto [next, ec] = std::from_chars(p, end, out);
      const bool ok = ec == std::errc() && next != p;
      p = next;
      return ok;
    };
    const bool ok = nl != nullptr && number(r) && number(d) && (blanks(), p == end);
    if (!ok)
      throw ParseError(
          name, 1, 0,
          fmt::format("expected a header line 'rows dim' (two non-negative integers), got '{}'", header.substr(0, 60)));
    rows = r;
    dim = d;
  }
  std::size_t pos = static_cast<std::size_t>(nl - base) + 1;
  const std::uint64_t rest = size - pos;
  // An empty table (V = 0 or d = 0) is refused, as by every reader.
  if (dim == 0) throw ParseError(name, 1, 0, "header says dim 0; expected dim >= 1");
  if (rows == 0) throw ParseError(name, 1, 0, "header says 0 rows; expected a table of at least one row");
  // Validate before allocating: each row needs at least a 1-byte word, a space and 4*d bytes.
  if (dim > rest / 4 || rows > rest / (4 * dim + 2))
    throw ParseError(name, 1, 0,
                     fmt::format("header claims {} rows of {} float32, but only {} bytes follow (each row needs at "
                                 "least {}); the header or the file is wrong",
                                 rows, dim, rest, dim > rest / 4 ? std::string("more") : std::to_string(4 * dim + 2)));
  const std::size_t n = limited(static_cast<std::size_t>(rows), cx.options.limit);
  const std::size_t d = static_cast<std::size_t>(dim);
  const std::size_t row_bytes = d * 4;

  Matrix E(n, d, DType::f32);
  float* out = E.f32_mut().data();
  std::vector<std::string_view> words(n);
  std::vector<std::uint64_t> offsets(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t start = pos;
    const char* sp = static_cast<const char*>(std::memchr(base + pos, ' ', size - pos));
    if (sp == nullptr)
      throw ParseError(
          name, 0, start,
          fmt::format("row {} of {}: expected a word followed by a space, found the end of the file", i + 1, rows));
    const std::size_t vec = static_cast<std::size_t>(sp - base) + 1;
    if (size - vec < row_bytes)
      throw ParseError(name, 0, vec,
                       fmt::format("row {} of {}: expected {} bytes of float32 values, the file has {} left "
                                   "(truncated?)",
                                   i + 1, rows, row_bytes, size - vec));
    std::size_t w = start;
    while (w < vec - 1 && base[w] == '\n') ++w;
    words[i] = std::string_view(base + w, vec - 1 - w);
    offsets[i] = w;
    std::memcpy(out + i * d, base + vec, row_bytes);  // little-endian float32, as on x86
    pos = vec + row_bytes;
  }
  cx.report.file_dtype = DType::f32;
  Table t = assemble(words, std::move(E), cx, [&](std::size_t i) { return Location{0, offsets[i]}; });
  if (cx.options.dtype != DType::f32) t.E = t.E.to(cx.options.dtype);
  return t;
}

}  // namespace lumen::io::detail
