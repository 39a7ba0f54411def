// libFuzzer target: the text readers' fast decimal parser must agree with its plain reference on any bytes,
// bit for bit (any NaN for NaN) and on where the number ends, from every starting position.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "lumen/io/parse_float.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* b = reinterpret_cast<const char*>(data);
  const char* e = b + size;
  for (const char* p = b; p < e; ++p) {
    float fast = 0, ref = 0;
    const char* pf = lumen::io::parse_float(p, e, fast);
    const char* pr = lumen::io::parse_float_reference(p, e, ref);
    const bool same_value = (std::isnan(fast) && std::isnan(ref)) ||
                            std::bit_cast<std::uint32_t>(fast) == std::bit_cast<std::uint32_t>(ref);
    if (pf != pr || (pf != nullptr && !same_value)) {
      std::fprintf(stderr, "parse_float disagrees at byte %td: ends %td vs %td, values %a vs %a\n", p - b,
                   pf ? pf - p : -1, pr ? pr - p : -1, static_cast<double>(fast), static_cast<double>(ref));
      std::abort();
    }
  }
  return 0;
}
