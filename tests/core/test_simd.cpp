// LUMEN_ISA is a request that the CPU must be able to honour: anything else is refused, never replaced.
#include <gtest/gtest.h>

#include <string>

#include "lumen/core/error.hpp"
#include "lumen/core/simd.hpp"

using namespace lumen;

namespace test_simd {
std::string refusal(std::string_view value, Isa best) {
  try {
    requested_isa(value, best);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Simd, RequestedIsaHonoursWhatTheCpuRuns) {
  EXPECT_EQ(requested_isa("", Isa::avx2), Isa::avx2);
  EXPECT_EQ(requested_isa("generic", Isa::avx2), Isa::generic);
  EXPECT_EQ(requested_isa("avx2", Isa::avx2), Isa::avx2);
  EXPECT_EQ(requested_isa("avx512", Isa::avx512), Isa::avx512);
}

TEST(Simd, AnIsaTheCpuLacksIsRefusedWithWhatItHas) {
  const std::string m = refusal("avx512", Isa::avx2);
  EXPECT_NE(m.find("LUMEN_ISA=avx512"), std::string::npos) << m;
  EXPECT_NE(m.find("lacks avx512"), std::string::npos) << m;
  EXPECT_NE(m.find("generic, avx2"), std::string::npos) << m;
  EXPECT_FALSE(refusal("avx2", Isa::generic).empty());
}

TEST(Simd, AnUnknownIsaIsRefused) {
  EXPECT_NE(refusal("sse9", Isa::avx512).find("not an ISA lumen knows"), std::string::npos);
  EXPECT_FALSE(refusal("AVX2", Isa::avx512).empty());
}

TEST(Simd, AvailableIsasEndWithTheDetectedOne) {
  const auto all = available_isas();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), Isa::generic);
  EXPECT_EQ(all.back(), detected_isa());
}

}  // namespace test_simd
