#pragma once
// lumen never prints and never exits: it throws these. The CLI maps them to exit codes (docs/exit-codes.md).
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lumen {

// An error's text that names some of the library's options, each as "{name}" ("give {corpus}, or {skip_lm}"):
// the library never spells a face's flag. Only the names listed are placeholders, so a path that holds braces is
// quoted as it is.
struct OptionText {
  std::string text;
  std::vector<std::string> options;
};

// Base of every lumen error. what() says what went wrong and where.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what)
      : std::runtime_error(what), message_(std::make_shared<const std::string>(what)) {}
  // what() spells each option as the library names it ("corpus").
  explicit Error(const OptionText& text);
  // The whole message: what() is a C string and stops at a NUL byte that a user's word may hold. Shared, so that
  // copying the error cannot throw.
  const std::string& message() const { return *message_; }
  // The message with each option it names spelled by `spell`: the CLI's flag ("--corpus"), Python's keyword
  // ("corpus="). message() when it names none.
  std::string text_for(const std::function<std::string(std::string_view)>& spell) const;
  // The same with every option it names spelled `spelled`: for a message that names one.
  std::string text_for(std::string_view spelled) const;
  // The options the message names, in the order given (empty: none).
  const std::vector<std::string>& options() const;

 private:
  std::shared_ptr<const std::string> message_;
  std::shared_ptr<const OptionText> text_;  // null: the message names no option
};

// Bad input data: a malformed file, an unknown word, an out-of-range id. CLI exit code 1.
class InputError : public Error {
 public:
  using Error::Error;
};

// A file that cannot be parsed: names the file, the line (1-based, 0 if n/a) or byte offset, and what was expected.
class ParseError : public InputError {
 public:
  ParseError(const std::string& file, std::uint64_t line, std::uint64_t offset, const std::string& what);
  // `what` naming options ("name it with {format}").
  ParseError(const std::string& file, std::uint64_t line, std::uint64_t offset, const OptionText& what);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  std::uint64_t offset() const { return offset_; }

 private:
  std::string file_;
  std::uint64_t line_;
  std::uint64_t offset_;
};

// An id outside [0, V): names the id and its position in the input.
class IdError : public InputError {
 public:
  IdError(std::int64_t id, std::size_t position, std::int64_t vocab_size);
  std::int64_t id() const { return id_; }
  std::size_t position() const { return position_; }

 private:
  std::int64_t id_;
  std::size_t position_;
};

// A token not in the vocabulary; carries close spellings to suggest.
class UnknownTokenError : public InputError {
 public:
  UnknownTokenError(std::string token, std::vector<std::string> suggestions);
  const std::string& token() const { return token_; }
  const std::vector<std::string>& suggestions() const { return suggestions_; }

 private:
  std::string token_;
  std::vector<std::string> suggestions_;
};

// Arguments that make no sense (k = 0, a negative dimension, an unknown option value). CLI exit code 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

// An option of the library's own (LmOptions::context, MapOptions::seeds) out of range. The text names it as
// "{option}"; what() spells it as the library does ("context"), and each face spells it its own way with
// Error::text_for: the CLI as its flag ("--context"), Python as its keyword ("context=").
class OptionError : public UsageError {
 public:
  OptionError(const std::string& option, const std::string& text);
  const std::string& option() const { return options().front(); }
};

// The operating system refused (cannot open, write or rename a file). CLI exit code 1.
class IoError : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace lumen
