#include "text_lines.hpp"

#include "lumen/core/error.hpp"
#include "lumen/core/utf8.hpp"

namespace lumen::eval::detail {

TextLines::TextLines(std::string_view text, bool universal) : text_(text), universal_(universal) {
  if (text_.starts_with("\xef\xbb\xbf")) text_.remove_prefix(3);
}

bool TextLines::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = universal_ ? text_.find_first_of("\r\n", pos_) : text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line = text_.substr(pos_, end - pos_);
  pos_ = end + 1;
  if (universal_ && end < text_.size() && text_[end] == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
  ++number_;
  return true;
}

void MalformedLines::operator()(std::uint64_t line, std::string reason) {
  if (strict_) throw ParseError(path_, line, 0, reason);
  out_.push_back({line, std::move(reason)});
}

bool BenchmarkLines::next(std::string_view& line, bool (*skip)(std::string_view)) {
  while (lines_.next(line)) {
    if (skip != nullptr && skip(line)) continue;
    if (valid_utf8(line)) return true;
    malformed("invalid UTF-8");
  }
  return false;
}

}  // namespace lumen::eval::detail
