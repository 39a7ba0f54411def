#include "messages.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <utility>

namespace lumen::cli {
namespace {

std::string& error_note() {
  static std::string note;
  return note;
}

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 if the bytes there are not one
// (overlong forms, surrogates and code points past U+10FFFF are invalid, as in Python's decoder).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (s.size() - i < n) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
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
