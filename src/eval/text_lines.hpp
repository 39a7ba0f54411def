#pragma once
// Reading the (small) benchmark files (read whole by lumen::read_file): their lines numbered as the error messages
// give them, and the lines that could not be read, recorded or thrown.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lumen/eval/malformed_line.hpp"

namespace lumen::eval::detail {

// The lines of a file's text, numbered from 1, a UTF-8 byte order mark dropped. Lines end at '\n' (Python's
// binary mode, as gensim reads analogies: a '\r' stays, as whitespace) or, with `universal`, at '\n', '\r' and
// "\r\n" (Python's text mode).
class TextLines {
 public:
  TextLines(std::string_view text, bool universal);
  bool next(std::string_view& line);  // false after the last line
  std::uint64_t number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint64_t number_ = 0;
  bool universal_;
};

// Where a malformed line goes: into `out`, or, when strict, a ParseError naming path and line.
class MalformedLines {
 public:
  MalformedLines(const std::string& path, bool strict, std::vector<MalformedLine>& out)
      : path_(path), strict_(strict), out_(out) {}
  void operator()(std::uint64_t line, std::string reason);

 private:
  const std::string& path_;
  bool strict_;
  std::vector<MalformedLine>& out_;
};

// The lines of a benchmark file worth parsing, numbered: a line `skip` accepts (a comment) is passed over, then a
// line of invalid UTF-8 is reported malformed and passed over too. malformed(reason) reports the current line.
class BenchmarkLines {
 public:
  BenchmarkLines(std::string_view text, bool universal, const std::string& path, bool strict,
                 std::vector<MalformedLine>& malformed)
      : lines_(text, universal), bad_(path, strict, malformed) {}
  bool next(std::string_view& line, bool (*skip)(std::string_view) = nullptr);  // false after the last line
  std::uint64_t number() const { return lines_.number(); }
  void malformed(std::string reason) { bad_(lines_.number(), std::move(reason)); }

 private:
  TextLines lines_;
  MalformedLines bad_;
};

}  // namespace lumen::eval::detail
