#include "lumen/core/utf8.hpp"

#include <algorithm>
#include <cstdint>

namespace lumen {

std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t& bad) {
  const auto b0 = static_cast<std::uint8_t>(s[i]);
  bad = 1;
  if (b0 < 0x80) return 1;
  std::size_t need;
  std::uint8_t lo = 0x80, hi = 0xbf;  // allowed range of the second byte
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    need = 2;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    need = 3;
    if (b0 == 0xe0) lo = 0xa0;
    if (b0 == 0xed) hi = 0x9f;  // no surrogates
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    need = 4;
    if (b0 == 0xf0) lo = 0x90;
    if (b0 == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  for (std::size_t k = 1; k < need; ++k) {
    if (i + k >= s.size()) {
      bad = k;
      return 0;
    }
    const auto b = static_cast<std::uint8_t>(s[i + k]);
    const std::uint8_t l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xbf;
    if (b < l || b > h) {
      bad = k;
      return 0;
    }
  }
  return need;
}

std::optional<char32_t> next_utf8(std::string_view s, std::size_t& i) {
  const std::size_t n = utf8_sequence(s, i);
  if (n == 0) {
    ++i;
    return std::nullopt;
  }
  static constexpr unsigned char kLeadMask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  auto cp = static_cast<char32_t>(static_cast<unsigned char>(s[i]) & kLeadMask[n]);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3fu);
  i += n;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

std::size_t utf8_invalid_at(std::string_view s) {
  std::size_t i = 0, bad = 0;
  while (i < s.size()) {
    if (static_cast<std::uint8_t>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence(s, i, bad);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

std::string utf8_repair(std::string_view s, bool replace) {
  std::string out;
  out.reserve(s.size() + 8);
  std::size_t i = 0, bad = 0;
  while (i < s.size()) {
    const std::size_t n = utf8_sequence(s, i, bad);
    if (n != 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      if (replace) out += "\xef\xbf\xbd";
      i += bad;
    }
  }
  return out;
}

std::string utf8_excerpt(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = 0;
  while (cut < max_bytes) {  // whole sequences only; an invalid byte counts as one
    const std::size_t n = std::max<std::size_t>(utf8_sequence(s, cut), 1);
    if (cut + n > max_bytes) break;
    cut += n;
  }
  return std::string(s.substr(0, cut)) + "... (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace lumen
