// The scan kernels: every ISA variant gives the bits of the generic reference, and a row's dot product
// is the bits of lumen::kernels' dot (so search scores equal similarity scores everywhere).
#include <gtest/gtest.h>

#include <vector>

#include "lumen/core/kernels.hpp"
#include "lumen/search/scan.hpp"
#include "support/random_floats.hpp"

using namespace lumen;

using lumen::test::bits;
using lumen::test::randn;

TEST(ScanKernels, EveryVariantMatchesGenericBitForBit) {
  const auto& ref = search::scan_kernels(Isa::generic);
  const auto& core = kernels::table(Isa::generic);
  for (std::size_t d : {1, 7, 8, 15, 16, 17, 33, 50, 100, 768}) {
    for (std::size_t n : {0, 1, 3, 4, 5, 9}) {
      auto q = randn(d, d), E = randn(n * d, n + 7 * d);
      std::vector<std::uint16_t> h(n * d), bh(n * d);
      core.f32_to_f16(E.data(), h.data(), n * d);
      core.f32_to_bf16(E.data(), bh.data(), n * d);
      std::vector<float> want[6], got(n);
      for (auto& w : want) w.resize(n);
      ref.dots_f32(q.data(), E.data(), n, d, want[0].data());
      ref.dots_f16(q.data(), h.data(), n, d, want[1].data());
      ref.dots_bf16(q.data(), bh.data(), n, d, want[2].data());
      ref.l2sq_f32(q.data(), E.data(), n, d, want[3].data());
      ref.l2sq_f16(q.data(), h.data(), n, d, want[4].data());
      ref.l2sq_bf16(q.data(), bh.data(), n, d, want[5].data());
      for (std::size_t r = 0; r < n; ++r) {
        EXPECT_EQ(want[0][r], core.dot_f32(q.data(), E.data() + r * d, d));
        EXPECT_EQ(want[1][r], core.dot_f16(q.data(), h.data() + r * d, d));
        EXPECT_EQ(want[2][r], core.dot_bf16(q.data(), bh.data() + r * d, d));
        double l2 = 0;
        for (std::size_t i = 0; i < d; ++i) l2 += (double(q[i]) - E[r * d + i]) * (double(q[i]) - E[r * d + i]);
        EXPECT_NEAR(want[3][r], l2, 1e-4 * (1 + l2));
      }
      for (Isa isa : available_isas()) {
        SCOPED_TRACE(std::string(isa_name(isa)) + " d=" + std::to_string(d) + " n=" + std::to_string(n));
        const auto& k = search::scan_kernels(isa);
        k.dots_f32(q.data(), E.data(), n, d, got.data());
        EXPECT_EQ(bits(got), bits(want[0]));
        k.dots_f16(q.data(), h.data(), n, d, got.data());
        EXPECT_EQ(bits(got), bits(want[1]));
        k.dots_bf16(q.data(), bh.data(), n, d, got.data());
        EXPECT_EQ(bits(got), bits(want[2]));
        k.l2sq_f32(q.data(), E.data(), n, d, got.data());
        EXPECT_EQ(bits(got), bits(want[3]));
        k.l2sq_f16(q.data(), h.data(), n, d, got.data());
        EXPECT_EQ(bits(got), bits(want[4]));
        k.l2sq_bf16(q.data(), bh.data(), n, d, got.data());
        EXPECT_EQ(bits(got), bits(want[5]));
      }
    }
  }
}
