// Every ISA variant of every kernel must give the same bits as the generic reference.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "lumen/core/dtype.hpp"
#include "lumen/core/kernels.hpp"
#include "support/random_floats.hpp"

using namespace lumen;

using lumen::test::bits;
using lumen::test::randn;

TEST(Kernels, AllVariantsAvailableIncludeGeneric) {
  auto isas = available_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(isas.front(), Isa::generic);
}

TEST(Kernels, EveryVariantMatchesGenericBitForBit) {
  const auto& ref = kernels::table(Isa::generic);
  for (std::size_t n : {0, 1, 7, 8, 15, 16, 17, 31, 33, 100, 768, 1001}) {
    auto a = randn(n, 1 + n), b = randn(n, 2 + n);
    std::vector<std::uint16_t> h(n), bh(n);
    ref.f32_to_f16(b.data(), h.data(), n);
    ref.f32_to_bf16(b.data(), bh.data(), n);
    for (Isa isa : available_isas()) {
      SCOPED_TRACE(std::string(isa_name(isa)) + " n=" + std::to_string(n));
      const auto& k = kernels::table(isa);
      EXPECT_EQ(bits(k.dot_f32(a.data(), b.data(), n)), bits(ref.dot_f32(a.data(), b.data(), n)));
      EXPECT_EQ(bits(k.dot_f16(a.data(), h.data(), n)), bits(ref.dot_f16(a.data(), h.data(), n)));
      EXPECT_EQ(bits(k.dot_bf16(a.data(), bh.data(), n)), bits(ref.dot_bf16(a.data(), bh.data(), n)));
      std::vector<std::uint16_t> h2(n), bh2(n);
      k.f32_to_f16(b.data(), h2.data(), n);
      k.f32_to_bf16(b.data(), bh2.data(), n);
      EXPECT_EQ(h2, h);
      EXPECT_EQ(bh2, bh);
      std::vector<float> f1(n), f2(n);
      k.f16_to_f32(h.data(), f1.data(), n);
      ref.f16_to_f32(h.data(), f2.data(), n);
      EXPECT_EQ(0, n ? std::memcmp(f1.data(), f2.data(), n * 4) : 0);
      k.bf16_to_f32(bh.data(), f1.data(), n);
      ref.bf16_to_f32(bh.data(), f2.data(), n);
      EXPECT_EQ(0, n ? std::memcmp(f1.data(), f2.data(), n * 4) : 0);
      std::vector<float> y1 = a, y2 = a;
      k.axpy_f32(y1.data(), 0.37f, b.data(), n);
      ref.axpy_f32(y2.data(), 0.37f, b.data(), n);
      EXPECT_EQ(y1, y2);
      k.add_f32(y1.data(), b.data(), n);
      ref.add_f32(y2.data(), b.data(), n);
      EXPECT_EQ(y1, y2);
    }
  }
}

TEST(Kernels, ConversionsAgreeOnSpecialValues) {
  // Every f16 bit pattern round-trips through f32 in every variant, NaN payloads included.
  std::vector<std::uint16_t> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  for (Isa isa : available_isas()) {
    const auto& k = kernels::table(isa);
    std::vector<float> f(all.size());
    k.f16_to_f32(all.data(), f.data(), all.size());
    std::vector<std::uint16_t> back(all.size());
    k.f32_to_f16(f.data(), back.data(), f.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      const bool snan = (i & 0x7c00) == 0x7c00 && (i & 0x3ff) != 0 && (i & 0x200) == 0;
      // Signalling NaNs come back quiet; everything else exactly.
      EXPECT_EQ(back[i], snan ? static_cast<std::uint16_t>(i | 0x200) : all[i]) << isa_name(isa) << " " << i;
    }
  }
}

TEST(Kernels, DotIsCorrect) {
  std::vector<float> a{1, 2, 3}, b{4, 5, 6};
  EXPECT_FLOAT_EQ(kernels::dot(a.data(), b.data(), 3), 32.0f);
}
