#include "messages.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <utility>

#include "lumen/core/utf8.hpp"

namespace lumen::cli {
namespace {

std::string& error_note() {
  static std::string note;
  return note;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_sequence(text, i);
    // C1 controls (U+0080..U+009F, bytes C2 80..C2 9F) include CSI, which some terminals obey like ESC [.
    const bool c1 = n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (n == 0 || c < 0x20 || c == 0x7F || c1) {
      const std::size_t len = n == 0 ? 1 : n;
      for (std::size_t k = 0; k < len; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i + k]));
      i += len;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

void print_error(std::string_view message) {
  fmt::print(stderr, "lumen: {}\n", printable(message));
  if (!error_note().empty()) fmt::print(stderr, "lumen: note: {}\n", printable(std::exchange(error_note(), {})));
}

void set_error_note(std::string note) { error_note() = std::move(note); }

void print_warning(std::string_view message) { fmt::print(stderr, "lumen: warning: {}\n", printable(message)); }

void print_note(std::string_view message) { fmt::print(stderr, "lumen: note: {}\n", printable(message)); }

std::string option_flag(std::string_view library_name) {
  // Options whose flag is not the name in kebab case.
  if (library_name == "max_train_tokens") return "--max-tokens";
  if (library_name == "shuffle_window") return "the shuffle window";
  std::string flag = "--";
  for (const char c : library_name) flag += c == '_' ? '-' : c;
  return flag;
}

}  // namespace lumen::cli
