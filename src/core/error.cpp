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

namespace {
std::string spell_option(const std::string& text, std::string_view spelled) {
  constexpr std::string_view kMark = "{option}";
  std::string out;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(kMark, from)) != std::string::npos; from = at + kMark.size())
    out.append(text, from, at - from).append(spelled);
  return out.append(text, from);
}
}  // namespace

// The base is built first, from the arguments before they are moved into the members.
OptionError::OptionError(std::string option, std::string text)
    : UsageError(spell_option(text, option)), option_(std::move(option)), text_(std::move(text)) {}

std::string OptionError::text_for(std::string_view spelled) const { return spell_option(text_, spelled); }

ParseError::ParseError(const std::string& file, std::uint64_t line, std::uint64_t offset, const std::string& what)
    : InputError(parse_message(file, line, offset, what)), file_(file), line_(line), offset_(offset) {}

IdError::IdError(std::int64_t id, std::size_t position, std::int64_t vocab_size)
    : InputError(fmt::format("id {} at position {} is out of range [0, {})", id, position, vocab_size)),
      id_(id),
      position_(position) {}

UnknownTokenError::UnknownTokenError(std::string token, std::vector<std::string> suggestions)
    : InputError(unknown_message(token, suggestions)), token_(std::move(token)), suggestions_(std::move(suggestions)) {}

}  // namespace lumen
