#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lumen/core/dtype.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/narrowing.hpp"

using namespace lumen;

TEST(DType, HalfKnownValues) {
  EXPECT_EQ(f32_to_f16(1.0f), 0x3c00);
  EXPECT_EQ(f32_to_f16(-2.0f), 0xc000);
  EXPECT_EQ(f32_to_f16(65504.0f), 0x7bff);
  EXPECT_EQ(f32_to_f16(65520.0f), 0x7c00);  // rounds up to Inf
  EXPECT_EQ(f32_to_f16(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(f32_to_f16(5.9604645e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(f32_to_f16(2.9802322e-8f), 0x0000);  // exactly half of it: ties to even (0)
  EXPECT_FLOAT_EQ(f16_to_f32(0x3555), 0.33325195f);
  EXPECT_TRUE(std::isnan(f16_to_f32(f32_to_f16(std::nanf("")))));
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: rounds to even (1).
  EXPECT_EQ(f32_to_f16(1.0f + 0x1.0p-11f), 0x3c00);
  EXPECT_EQ(f32_to_f16(1.0f + 0x1.8p-10f), 0x3c02);
}

TEST(DType, BFloatKnownValues) {
  EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
  EXPECT_FLOAT_EQ(bf16_to_f32(0x4049), 3.140625f);
  EXPECT_EQ(f32_to_bf16(1.0f + 0x1.0p-8f), 0x3f80);  // tie to even
  EXPECT_TRUE(std::isnan(bf16_to_f32(f32_to_bf16(std::nanf("")))));
}

TEST(DType, Names) {
  EXPECT_EQ(parse_dtype("bfloat16"), DType::bf16);
  EXPECT_EQ(dtype_name(DType::f16), "f16");
  EXPECT_THROW(parse_dtype("int8"), UsageError);
}

TEST(Narrowing, CountsValuesThatBecomeInfOrZero) {
  Matrix m(2, 4);
  const float v[] = {1e5f, -7e4f, 65504.0f, 1e-9f, 3e-8f, std::numeric_limits<float>::infinity(), std::nanf(""), 0.0f};
  for (std::size_t i = 0; i < 8; ++i) m.set(i / 4, i % 4, v[i]);
  NarrowingLoss loss;
  const Matrix h = narrow_to(m, DType::f16, loss);
  EXPECT_EQ(h.dtype(), DType::f16);
  EXPECT_EQ(loss.to_inf, 2u);   // 1e5, -7e4 (65504 fits; Inf was Inf already)
  EXPECT_EQ(loss.to_zero, 1u);  // 1e-9 (3e-8 rounds up to the smallest subnormal; 0 was 0)
  EXPECT_TRUE(loss.any());
  narrow_to(m, DType::bf16, loss);
  EXPECT_FALSE(loss.any());  // bf16 has f32's range
  m.set(0, 0, 3.4e38f);
  m.set(0, 1, 1e-45f);
  narrow_to(m, DType::bf16, loss);
  EXPECT_EQ(loss.to_inf, 1u);
  EXPECT_EQ(loss.to_zero, 1u);
  narrow_to(m, DType::f32, loss);
  EXPECT_FALSE(loss.any());
  EXPECT_THROW(narrowing_loss(m, Matrix(1, 4, DType::f16)), Error);
}
