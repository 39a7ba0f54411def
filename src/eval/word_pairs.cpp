#include "lumen/eval/word_pairs.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/core/text_fold.hpp"
#include "text_lines.hpp"

namespace lumen::eval {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Python's float() on a string: surrounding whitespace, a sign, "inf"/"infinity"/"nan" in any case, decimal
// digits with single underscores between them, an optional fraction and exponent. No hex, no "nan(...)".
std::optional<double> parse_python_float(std::string_view s) {
  s = strip_whitespace(s);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::string lower;
  for (char c : s) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  if (lower == "inf" || lower == "infinity") return negative ? -HUGE_VAL : HUGE_VAL;
  if (lower == "nan") return std::numeric_limits<double>::quiet_NaN();
  // digits [_digits]* ; the underscores are dropped
  std::string clean;
  std::size_t i = 0;
  auto digits = [&]() -> std::size_t {  // returns how many digits were read; false on a misplaced '_'
    std::size_t n = 0;
    while (i < s.size()) {
      if (is_digit(s[i])) {
        clean += s[i++];
        ++n;
      } else if (s[i] == '_' && n > 0 && i + 1 < s.size() && is_digit(s[i + 1])) {
        ++i;
      } else {
        break;
      }
    }
    return n;
  };
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    clean += s[i++];
    mantissa += digits();
  }
  if (mantissa == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    clean += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
    if (digits() == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  double v = 0.0;
  const auto r = std::from_chars(clean.data(), clean.data() + clean.size(), v);
  if (r.ec == std::errc::result_out_of_range) {
    // from_chars refuses what Python rounds: overflow to inf, underflow to 0
    v = clean.find_first_of("eE") != std::string::npos && clean.find("e-") == std::string::npos &&
                clean.find("E-") == std::string::npos
            ? HUGE_VAL
            : 0.0;
  } else if (r.ec != std::errc() || r.ptr != clean.data() + clean.size()) {
    return std::nullopt;
  }
  return negative ? -v : v;
}

}  // namespace

WordPairSet parse_word_pairs(std::string_view text, const std::string& path, bool strict) {
  WordPairSet set;
  set.path = path;
  // Universal newlines, as Python's text mode: \n, \r and \r\n end a line. A comment is skipped before its UTF-8 is
  // checked.
  detail::BenchmarkLines lines(text, true, path, strict, set.malformed);
  std::string_view line;
  while (lines.next(line, [](std::string_view l) { return l.starts_with("#"); })) {
    const std::uint64_t line_no = lines.number();
    if (strip_whitespace(line).empty()) continue;
    std::string_view fields[3];
    std::size_t n = 0, start = 0;
    for (;;) {
      const std::size_t tab = line.find('\t', start);
      if (n < 3) fields[n] = line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
      ++n;
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (n != 3) {
      lines.malformed("expected 3 tab-separated fields (word, word, score), found " + std::to_string(n));
      continue;
    }
    const auto score = parse_python_float(fields[2]);
    if (!score) {
      lines.malformed("the score '" + std::string(fields[2]) + "' is not a number");
      continue;
    }
    set.pairs.push_back({std::string(fields[0]), std::string(fields[1]), *score, line_no});
  }
  return set;
}

WordPairSet read_word_pairs(const std::string& path, bool strict) {
  return parse_word_pairs(read_file(path), path, strict);
}

}  // namespace lumen::eval
