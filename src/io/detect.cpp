// Which format a file holds, from its first bytes: magic numbers for the binary formats, then the shape of
// the first lines for the text ones.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <fmt/format.h>

#include "io/readers.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io::detail {

namespace {

std::uint64_t le64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

bool is_number(std::string_view f) {
  if (!f.empty() && f[0] == '+') f.remove_prefix(1);
  double v;
  auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  return ec != std::errc::invalid_argument && ptr == f.data() + f.size() && !f.empty();
}

std::vector<std::string_view> split(std::string_view line, bool& tabs) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  std::vector<std::string_view> out;
  tabs = line.find('\t') != std::string_view::npos;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool is_count(std::string_view f) {
  return !f.empty() && f.size() < 20 && std::all_of(f.begin(), f.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

constexpr std::uint32_t kFastTextMagic = 793712314;

Format detect(std::string_view bytes, std::size_t size, const std::string& name) {
  if (size == 0) throw ParseError(name, 0, 0, "empty file; expected a table");
  if (bytes.size() >= 4) {
    std::uint32_t magic;
    std::memcpy(&magic, bytes.data(), 4);
    if (magic == kFastTextMagic) return Format::fasttext_bin;
  }
  if (bytes.substr(0, 6) == "\x93NUMPY") return Format::npy;
  if (bytes.substr(0, 4) == "GGUF") return Format::gguf;
  if (bytes.size() >= 9 && bytes[8] == '{') {
    const std::uint64_t n = le64(bytes.data());
    if (n >= 2 && n <= size - 8) return Format::safetensors;
  }
  const std::size_t nl = bytes.find('\n');
  const std::string_view first = bytes.substr(0, nl);
  bool tabs = false;
  const auto fields = split(first, tabs);
  if (fields.size() == 2 && !tabs && is_count(fields[0]) && is_count(fields[1])) {
    // word2vec header: text or binary? In a binary file the first row's values are raw float32 bytes.
    std::uint64_t dim = 0;
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), dim);
    if (nl == std::string_view::npos) return Format::word2vec_text;  // header only: an empty table
    // Text if the first row reads as a word and d numbers. Otherwise look at the first 4*d bytes after the
    // first word: raw float32 bytes usually hold a control byte (0.0f is 00 00 00 00) and are rarely digits.
    const std::string_view rest = bytes.substr(nl + 1);
    const std::size_t sp = rest.find(' ');
    const std::string_view region =
        sp == std::string_view::npos ? rest : rest.substr(sp + 1, std::min<std::uint64_t>(dim * 4, 4096));
    const bool control = std::any_of(region.begin(), region.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r' && c != '\n';
    });
    const std::string_view row = rest.substr(0, rest.find('\n'));
    bool row_tabs = false;
    const auto row_fields = split(row, row_tabs);
    const bool numeric =
        row_fields.size() == dim + 1 && std::all_of(row_fields.begin() + 1, row_fields.end(), is_number);
    // A malformed text row (wrong count, a bad field) still reads mostly as digits, signs, points and spaces;
    // float32 bytes almost never do.
    const auto numberish = static_cast<std::size_t>(std::count_if(region.begin(), region.end(), [](char c) {
      return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' || c == ' ' ||
             c == '\t' || c == '\n' || c == '\r';
    }));
    const bool textual = numeric || (!control && !region.empty() && numberish * 2 >= region.size());
    return textual ? Format::word2vec_text : Format::word2vec_binary;
  }
  if (!fields.empty() && std::all_of(fields.begin() + 1, fields.end(), is_number)) {
    if (tabs && is_number(fields[0])) return Format::projector_tsv;
    if (fields.size() >= 2) return Format::glove;
  }
  throw ParseError(name, 1, 0,
                   OptionText{"unrecognised table format; expected word2vec text/binary, GloVe text, a fastText .bin, "
                              "safetensors, .npy or a projector vectors.tsv (or name it with {format})",
                              {"format"}});
}

}  // namespace lumen::io::detail
