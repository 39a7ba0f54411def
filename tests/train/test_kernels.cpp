#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/train/kernels.hpp"

using namespace lumen;

TEST(TrainKernels, EveryVariantEqualsTheReferenceBitForBit) {
  const auto& ref = train::kernels::kGeneric;
  Rng rng(3);
  for (std::size_t n : {1u, 3u, 7u, 8u, 15u, 16u, 17u, 31u, 100u, 128u, 300u}) {
    std::vector<float> g(n), o(n), h(n);
    for (std::size_t i = 0; i < n; ++i) {
      g[i] = static_cast<float>(rng.normal());
      o[i] = static_cast<float>(rng.normal());
      h[i] = static_cast<float>(rng.normal());
    }
    auto g0 = g, o0 = o, y0 = h;
    ref.pair_update(g0.data(), o0.data(), h.data(), 0.0371f, n);
    ref.scale(y0.data(), 0.3f, n);
    // The reference is what the formula says.
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(g0[i], g[i] + 0.0371f * o[i]);
      EXPECT_EQ(o0[i], o[i] + 0.0371f * h[i]);
    }
    for (Isa isa : available_isas()) {
      const auto& k = train::kernels::table(isa);
      auto g1 = g, o1 = o, y1 = h;
      k.pair_update(g1.data(), o1.data(), h.data(), 0.0371f, n);
      k.scale(y1.data(), 0.3f, n);
      EXPECT_EQ(0, std::memcmp(g1.data(), g0.data(), n * 4)) << isa_name(isa) << " n=" << n;
      EXPECT_EQ(0, std::memcmp(o1.data(), o0.data(), n * 4)) << isa_name(isa) << " n=" << n;
      EXPECT_EQ(0, std::memcmp(y1.data(), y0.data(), n * 4)) << isa_name(isa) << " n=" << n;
    }
  }
}
