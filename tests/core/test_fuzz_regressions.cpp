// Inputs that fuzz/ targets once crashed on, kept as tests (see fuzz/README.md for the procedure).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "lumen/core/dtype.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/core/simd.hpp"
#include "support/random_floats.hpp"

using namespace lumen;

using lumen::test::bits;

// fuzz_core_dtype, seed `halves`: the scalar f16_to_f32 kept a signalling NaN signalling (0x7c01 -> 0x7f802000)
// while the F16C kernels quiet it (0x7fc02000), so the variants were not bit-identical.
TEST(FuzzRegression, SignallingHalfNaNWidensToTheSameQuietNaNInEveryVariant) {
  const std::vector<std::uint16_t> h = {0x7c01, 0xfc01, 0x7d55, 0x7e00, 0x7fff, 0x7c00, 0xfc00};
  std::vector<float> want(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) want[i] = f16_to_f32(h[i]);
  EXPECT_EQ(bits(want[0]), 0x7fc02000u);
  EXPECT_EQ(bits(want[1]), 0xffc02000u);
  EXPECT_EQ(bits(want[5]), 0x7f800000u);  // Inf stays Inf
  for (Isa isa : available_isas()) {
    SCOPED_TRACE(std::string(isa_name(isa)));
    std::vector<float> got(h.size());
    kernels::table(isa).f16_to_f32(h.data(), got.data(), h.size());
    for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(bits(got[i]), bits(want[i])) << "half 0x" << std::hex << h[i];
  }
}
