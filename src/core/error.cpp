#include "lumen/core/error.hpp"

#include <fmt/format.h>

namespace lumen {

namespace {
std::string parse_message(const std::string& file, std::uint64_t line, std::uint64_t offset, const std::string& what) {
  if (line > 0) return fmt::format("{}:{}: {}", file, line, what);
  return fmt::format("{} (byte {}): {}", file, offset, what);
}

std::string unknown_message(const std::string& token, const std::vector<std::string>& suggestions) {
  std::string msg = fmt::format("'{}' is not in the vocabulary", token);
  if (!suggestions.empty()) {
    msg += "; did you mean ";
    for (std::size_t i = 0; i < suggestions.size(); ++i) msg += (i ? ", '" : "'") + suggestions[i] + "'";
    msg += "?";
  }
  return msg;
}
}  // namespace

ParseError::ParseError(const std::string& file, std::uint64_t line, std::uint64_t offset, const std::string& what)
    : InputError(parse_message(file, line, offset, what)), file_(file), line_(line), offset_(offset) {}

IdError::IdError(std::int64_t id, std::size_t position, std::int64_t vocab_size)
    : InputError(fmt::format("id {} at position {} is out of range [0, {})", id, position, vocab_size)),
      id_(id),
      position_(position) {}

UnknownTokenError::UnknownTokenError(std::string token, std::vector<std::string> suggestions)
    : InputError(unknown_message(token, suggestions)), token_(std::move(token)), suggestions_(std::move(suggestions)) {}

}  // namespace lumen
