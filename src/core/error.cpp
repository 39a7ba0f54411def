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
// text with each "{name}" of the listed options replaced by spell(name).
std::string spell_options(const OptionText& t, const std::function<std::string(std::string_view)>& spell) {
  std::string out = t.text;
  for (const auto& name : t.options) {
    const std::string mark = "{" + name + "}", spelled = spell(name);
    for (std::size_t at = out.find(mark); at != std::string::npos; at = out.find(mark, at + spelled.size()))
      out.replace(at, mark.size(), spelled);
  }
  return out;
}

std::string library_spelling(std::string_view name) { return std::string(name); }

// "{option}" becomes the option's own name, so that Error's placeholders hold it.
OptionText option_text(const std::string& option, const std::string& text) {
  OptionText t{text, {option}};
  constexpr std::string_view kMark = "{option}";
  for (std::size_t at = t.text.find(kMark); at != std::string::npos; at = t.text.find(kMark, at + option.size() + 2))
    t.text.replace(at, kMark.size(), "{" + option + "}");
  return t;
}

const std::vector<std::string> kNoOptions;
}  // namespace

// The base is built first, from the arguments before they are copied into the members.
Error::Error(const OptionText& text)
    : std::runtime_error(spell_options(text, library_spelling)),
      message_(std::make_shared<const std::string>(spell_options(text, library_spelling))),
      text_(std::make_shared<const OptionText>(text)) {}

std::string Error::text_for(const std::function<std::string(std::string_view)>& spell) const {
  return text_ ? spell_options(*text_, spell) : message();
}

std::string Error::text_for(std::string_view spelled) const {
  return text_for([spelled](std::string_view) { return std::string(spelled); });
}

const std::vector<std::string>& Error::options() const { return text_ ? text_->options : kNoOptions; }

OptionError::OptionError(const std::string& option, const std::string& text) : UsageError(option_text(option, text)) {}

ParseError::ParseError(const std::string& file, std::uint64_t line, std::uint64_t offset, const std::string& what)
    : InputError(parse_message(file, line, offset, what)), file_(file), line_(line), offset_(offset) {}

ParseError::ParseError(const std::string& file, std::uint64_t line, std::uint64_t offset, const OptionText& what)
    : InputError(OptionText{parse_message(file, line, offset, what.text), what.options}),
      file_(file),
      line_(line),
      offset_(offset) {}

IdError::IdError(std::int64_t id, std::size_t position, std::int64_t vocab_size)
    : InputError(fmt::format("id {} at position {} is out of range [0, {})", id, position, vocab_size)),
      id_(id),
      position_(position) {}

UnknownTokenError::UnknownTokenError(std::string token, std::vector<std::string> suggestions)
    : InputError(unknown_message(token, suggestions)), token_(std::move(token)), suggestions_(std::move(suggestions)) {}

}  // namespace lumen
