#include "lumen/text/display.hpp"

#include <fmt/format.h>

#include "lumen/core/utf8.hpp"

namespace lumen::text {

namespace {
constexpr std::string_view kSpace = "\u2423", kNewline = "\u21B5", kTab = "\u21E5", kReturn = "\u240D";

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string display_piece(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 8);
  std::size_t i = 0;
  while (i < bytes.size()) {
    const std::size_t start = i;
    const auto cp = next_utf8(bytes, i);
    if (!cp) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(bytes[start]));
      continue;
    }
    switch (*cp) {
      case ' ': out += kSpace; break;
      case '\n': out += kNewline; break;
      case '\t': out += kTab; break;
      case '\r': out += kReturn; break;
      default:
        if (*cp < 0x20 || *cp == 0x7F) out += fmt::format("\\x{:02x}", static_cast<unsigned>(*cp));
        else out.append(bytes.substr(start, i - start));
    }
  }
  return out;
}

std::string parse_display(std::string_view label) {
  std::string out;
  out.reserve(label.size());
  std::size_t i = 0;
  while (i < label.size()) {
    const std::string_view rest = label.substr(i);
    if (rest.starts_with(kSpace)) {
      out += ' ', i += kSpace.size();
    } else if (rest.starts_with(kNewline)) {
      out += '\n', i += kNewline.size();
    } else if (rest.starts_with(kTab)) {
      out += '\t', i += kTab.size();
    } else if (rest.starts_with(kReturn)) {
      out += '\r', i += kReturn.size();
    } else if (rest.size() >= 4 && rest[0] == '\\' && rest[1] == 'x' && hex(rest[2]) >= 0 && hex(rest[3]) >= 0) {
      out += static_cast<char>(hex(rest[2]) * 16 + hex(rest[3])), i += 4;
    } else {
      out += label[i++];
    }
  }
  return out;
}

}  // namespace lumen::text
