#include "lumen/text/byte_level.hpp"

#include <array>

#include "lumen/core/utf8.hpp"

namespace lumen::text {

namespace {
bool stands_for_itself(unsigned b) { return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174; }

struct Maps {
  std::array<char32_t, 256> to_cp{};
  std::array<int, 324> from_cp{};  // code points < 324 cover the whole map; -1: not in it
  Maps() {
    from_cp.fill(-1);
    unsigned n = 0;
    for (unsigned b = 0; b < 256; ++b) {
      to_cp[b] = stands_for_itself(b) ? b : 256 + n++;
      from_cp[to_cp[b]] = static_cast<int>(b);
    }
  }
};
const Maps& maps() {
  static const Maps m;
  return m;
}
}  // namespace

char32_t byte_to_unicode(unsigned char b) { return maps().to_cp[b]; }

std::string to_byte_level(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) append_utf8(out, maps().to_cp[b]);
  return out;
}

std::optional<std::string> from_byte_level(std::string_view spelled) {
  std::string out;
  out.reserve(spelled.size());
  std::size_t i = 0;
  while (i < spelled.size()) {
    const auto cp = next_utf8(spelled, i);
    if (!cp || *cp >= maps().from_cp.size() || maps().from_cp[*cp] < 0) return std::nullopt;
    out.push_back(static_cast<char>(maps().from_cp[*cp]));
  }
  return out;
}

}  // namespace lumen::text
