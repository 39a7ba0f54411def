// NumPy .npy: "\x93NUMPY", version, a header length, a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (V, d), } and the C-order data, which is borrowed from the
// mapped file. Rows are named by an optional vocabulary file (one token per line).
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>

#include "io/readers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/write.hpp"

namespace lumen::io::detail {

namespace {

// The value text after 'key': in the header dict (up to the next top-level ',' or '}').
std::string_view dict_value(std::string_view h, std::string_view key, const std::string& name) {
  const std::string quoted1 = fmt::format("'{}'", key), quoted2 = fmt::format("\"{}\"", key);
  std::size_t k = h.find(quoted1);
  std::size_t len = quoted1.size();
  if (k == std::string_view::npos) {
    k = h.find(quoted2);
    len = quoted2.size();
  }
  if (k == std::string_view::npos)
    throw ParseError(name, 0, 10, fmt::format("header has no '{}'; expected a .npy header", key));
  std::size_t p = h.find(':', k + len);
  if (p == std::string_view::npos) throw ParseError(name, 0, 10 + k, fmt::format("expected ':' after '{}'", key));
  ++p;
  while (p < h.size() && h[p] == ' ') ++p;
  std::size_t e = p;
  int depth = 0;
  while (e < h.size()) {
    const char c = h[e];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if ((c == ',' || c == '}') && depth == 0) break;
    ++e;
  }
  std::string_view v = h.substr(p, e - p);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  return v;
}

}  // namespace

Table read_npy(const ReadContext& cx) {
  const std::string& name = cx.name();
  const char* const base = cx.file->data();
  const std::uint64_t size = cx.file->size();
  if (size < 10 || std::memcmp(base, "\x93NUMPY", 6) != 0)
    throw ParseError(name, 0, 0, "expected the .npy magic \\x93NUMPY and a version");
  const auto major = static_cast<unsigned char>(base[6]);
  std::uint64_t hlen = 0, hstart = 0;
  if (major == 1) {
    hlen = static_cast<unsigned char>(base[8]) | (static_cast<std::uint64_t>(static_cast<unsigned char>(base[9])) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) throw ParseError(name, 0, 8, "truncated header length; expected 4 bytes");
    for (int i = 3; i >= 0; --i) hlen = (hlen << 8) | static_cast<unsigned char>(base[8 + i]);
    hstart = 12;
  } else {
    throw ParseError(name, 0, 6, fmt::format(".npy version {}; expected 1, 2 or 3", major));
  }
  if (hlen > size - hstart)
    throw ParseError(name, 0, 8, fmt::format("header length {} exceeds the file ({} bytes)", hlen, size));
  const std::string_view h(base + hstart, hlen);
  const std::string_view descr = dict_value(h, "descr", name);
  const std::string_view fortran = dict_value(h, "fortran_order", name);
  const std::string_view shape = dict_value(h, "shape", name);

  DType from;
  if (descr == "'<f4'" || descr == "\"<f4\"") from = DType::f32;
  else if (descr == "'<f2'" || descr == "\"<f2\"") from = DType::f16;
  else throw ParseError(name, 0, hstart, fmt::format("dtype {}; expected float32 '<f4' or float16 '<f2'", descr));
  if (fortran != "False")
    throw ParseError(name, 0, hstart,
                     fmt::format("fortran_order {}; expected a C-order array (numpy.ascontiguousarray)", fortran));
  // shape: "(V, d)"
  std::vector<std::uint64_t> dims;
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    throw ParseError(name, 0, hstart, fmt::format("shape {}; expected a tuple (V, d)", shape));
  for (std::size_t p = 1; p + 1 < shape.size();) {
    while (p + 1 < shape.size() && (shape[p] == ' ' || shape[p] == ',')) ++p;
    if (p + 1 >= shape.size()) break;
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(shape.data() + p, shape.data() + shape.size() - 1, v);
    if (ec != std::errc()) throw ParseError(name, 0, hstart, fmt::format("shape {}; expected integers", shape));
    dims.push_back(v);
    p = static_cast<std::size_t>(ptr - shape.data());
    while (p + 1 < shape.size() && shape[p] == 'L') ++p;  // Python 2 longs
  }
  if (dims.size() != 2)
    throw ParseError(name, 0, hstart,
                     fmt::format("shape {} has {} dimensions; expected a 2-D (V, d) matrix", shape, dims.size()));
  const std::uint64_t V = dims[0], d = dims[1], esz = dtype_size(from);
  if (V == 0 || d == 0)
    throw ParseError(name, 0, hstart,
                     fmt::format("shape {} is an empty table; expected V >= 1 rows and d >= 1 columns", shape));
  const std::uint64_t data_at = hstart + hlen, avail = size - data_at;
  if ((d != 0 && V > UINT64_MAX / d / esz) || V * d * esz != avail)
    throw ParseError(
        name, 0, data_at,
        fmt::format("shape ({}, {}) of {} needs {} data bytes; the file has {}", V, d, dtype_name(from),
                    d != 0 && V > UINT64_MAX / d / esz ? std::string("too many") : std::to_string(V * d * esz), avail));
  const std::size_t rows = limited(static_cast<std::size_t>(V), cx.options.limit);
  cx.report.rows_read = rows;
  Table t;
  t.E = view_or_convert(cx, base + data_at, rows, static_cast<std::size_t>(d), from);

  std::string vocab = cx.options.vocab_path;
  struct stat st {};
  if (vocab.empty() && ::stat(npy_vocab_path(name).c_str(), &st) == 0) vocab = npy_vocab_path(name);
  if (vocab.empty()) {
    t.vocab = Vocab::numbered(rows);
    return t;
  }
  auto tokens = read_vocab_file(vocab, rows, static_cast<std::size_t>(V), cx);
  std::vector<std::string_view> words(tokens.begin(), tokens.end());
  return assemble(words, std::move(t.E), cx, [](std::size_t i) { return Location{i + 1, 0}; });
}

}  // namespace lumen::io::detail
