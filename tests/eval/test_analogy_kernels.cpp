// Every analogy kernel variant this CPU runs against the plain reference: the same candidates, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../../src/eval/analogy_kernels.hpp"
#include "lumen/core/rng.hpp"

using namespace lumen;

TEST(EvalAnalogyKernels, EveryIsaAgreesWithTheReference) {
  Rng rng(6);
  for (std::size_t n : {0u, 1u, 7u, 8u, 15u, 16u, 17u, 100u, 513u}) {
    std::vector<float> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(rng.uniform() * 2 - 1);
      b[i] = static_cast<float>(rng.uniform() * 2 - 1);
      c[i] = static_cast<float>(rng.uniform() * 2 - 1);
      if (i % 13 == 5) b[i] = NAN;  // a zero row: never selected
    }
    for (float threshold : {-INFINITY, 0.0f, 0.5f, 0.9f}) {
      std::vector<std::uint32_t> ref_add(n + 1), ref_mul(n + 1);
      const auto& g = eval::kernels::kGeneric;
      ref_add.resize(g.add_above(a.data(), b.data(), c.data(), n, threshold, ref_add.data()));
      ref_mul.resize(g.mul_above(a.data(), b.data(), c.data(), n, threshold, ref_mul.data()));
      for (std::size_t i = 0; i < n; ++i) {  // the reference itself: the formula, NaN excluded
        const float s = (b[i] + c[i]) - a[i];
        const bool in = std::find(ref_add.begin(), ref_add.end(), i) != ref_add.end();
        EXPECT_EQ(in, s > threshold);
      }
      for (Isa isa : available_isas()) {
        SCOPED_TRACE(std::string(isa_name(isa)) + " n=" + std::to_string(n));
        const auto& k = eval::kernels::table(isa);
        std::vector<std::uint32_t> add(n + 1), mul(n + 1);
        add.resize(k.add_above(a.data(), b.data(), c.data(), n, threshold, add.data()));
        mul.resize(k.mul_above(a.data(), b.data(), c.data(), n, threshold, mul.data()));
        EXPECT_EQ(add, ref_add);
        EXPECT_EQ(mul, ref_mul);
      }
    }
  }
}
