// The block layouts follow ggml-common.h; each dequantisation is written from its definition there.
// Q8_0 (32 per block): d (f16), qs[32] int8; x = d * q.
// Q4_0 (32): d (f16), qs[16] nibbles; x[j] = d * ((qs[j] & 15) - 8), x[j + 16] = d * ((qs[j] >> 4) - 8).
// Q4_K (256): d, dmin (f16), scales[12] (a 6-bit scale and min per 32), qs[128] nibbles; x = d * sc * q - dmin * m.
// Q6_K (256): ql[128] low nibbles, qh[64] high 2 bits, scales[16] int8 (one per 16), d (f16); x = d * sc * (q - 32).
#include "io/ggml_types.hpp"

#include <fmt/format.h>

#include "lumen/core/dtype.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io {

namespace {

constexpr GgmlType kTypes[] = {
    {0, "F32", 1, 4, true},          {1, "F16", 1, 2, true},          {2, "Q4_0", 32, 18, true},
    {3, "Q4_1", 32, 20, false},      {6, "Q5_0", 32, 22, false},      {7, "Q5_1", 32, 24, false},
    {8, "Q8_0", 32, 34, true},       {9, "Q8_1", 32, 36, false},      {10, "Q2_K", 256, 84, false},
    {11, "Q3_K", 256, 110, false},   {12, "Q4_K", 256, 144, true},    {13, "Q5_K", 256, 176, false},
    {14, "Q6_K", 256, 210, true},    {15, "Q8_K", 256, 292, false},   {16, "IQ2_XXS", 256, 66, false},
    {17, "IQ2_XS", 256, 74, false},  {18, "IQ3_XXS", 256, 98, false}, {19, "IQ1_S", 256, 50, false},
    {20, "IQ4_NL", 32, 18, false},   {21, "IQ3_S", 256, 110, false},  {22, "IQ2_S", 256, 82, false},
    {23, "IQ4_XS", 256, 136, false}, {24, "I8", 1, 1, false},         {25, "I16", 1, 2, false},
    {26, "I32", 1, 4, false},        {27, "I64", 1, 8, false},        {28, "F64", 1, 8, false},
    {29, "IQ1_M", 256, 56, false},   {30, "BF16", 1, 2, true},        {34, "TQ1_0", 256, 54, false},
    {35, "TQ2_0", 256, 66, false},
};

std::uint16_t u16_at(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }

void dequantize_q8_0(const unsigned char* b, float* y, std::size_t blocks) {
  for (std::size_t i = 0; i < blocks; ++i, b += 34, y += 32) {
    const float d = f16_to_f32(u16_at(b));
    const auto* qs = reinterpret_cast<const std::int8_t*>(b + 2);
    for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(qs[j]) * d;
  }
}

void dequantize_q4_0(const unsigned char* b, float* y, std::size_t blocks) {
  for (std::size_t i = 0; i < blocks; ++i, b += 18, y += 32) {
    const float d = f16_to_f32(u16_at(b));
    const unsigned char* qs = b + 2;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>((qs[j] & 0x0F) - 8) * d;
      y[j + 16] = static_cast<float>((qs[j] >> 4) - 8) * d;
    }
  }
}

// Q4_K's j-th 6-bit scale and min (j in [0, 8)) from its 12 packed bytes.
void scale_min_k4(int j, const unsigned char* q, float& sc, float& m) {
  if (j < 4) {
    sc = static_cast<float>(q[j] & 63);
    m = static_cast<float>(q[j + 4] & 63);
  } else {
    sc = static_cast<float>((q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4));
    m = static_cast<float>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
  }
}

void dequantize_q4_k(const unsigned char* b, float* y, std::size_t blocks) {
  for (std::size_t i = 0; i < blocks; ++i, b += 144) {
    const float d = f16_to_f32(u16_at(b)), dmin = f16_to_f32(u16_at(b + 2));
    const unsigned char* scales = b + 4;
    const unsigned char* q = b + 16;
    for (int j = 0, is = 0; j < 256; j += 64, q += 32, is += 2) {
      float sc = 0, m = 0;
      scale_min_k4(is, scales, sc, m);
      const float d1 = d * sc, m1 = dmin * m;
      scale_min_k4(is + 1, scales, sc, m);
      const float d2 = d * sc, m2 = dmin * m;
      for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>(q[l] & 0x0F) - m1;
      for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
    }
  }
}

void dequantize_q6_k(const unsigned char* b, float* y, std::size_t blocks) {
  for (std::size_t i = 0; i < blocks; ++i, b += 210) {
    const unsigned char* ql = b;
    const unsigned char* qh = b + 128;
    const auto* sc = reinterpret_cast<const std::int8_t*>(b + 192);
    const float d = f16_to_f32(u16_at(b + 208));
    for (int n = 0; n < 256; n += 128, y += 128, ql += 64, qh += 32, sc += 8) {
      for (int l = 0; l < 32; ++l) {
        const int is = l / 16;
        const int q1 = ((ql[l] & 0x0F) | (((qh[l] >> 0) & 3) << 4)) - 32;
        const int q2 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
        const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
        const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
        y[l] = d * static_cast<float>(sc[is]) * static_cast<float>(q1);
        y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
        y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
        y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
      }
    }
  }
}

}  // namespace

std::optional<GgmlType> ggml_type(std::uint32_t id) {
  for (const GgmlType& t : kTypes)
    if (t.id == id) return t;
  return std::nullopt;
}

void dequantize_row(const GgmlType& type, const void* blocks, float* y, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(blocks);
  const std::size_t count = n / type.block;
  switch (type.id) {
    case 8: dequantize_q8_0(b, y, count); return;
    case 2: dequantize_q4_0(b, y, count); return;
    case 12: dequantize_q4_k(b, y, count); return;
    case 14: dequantize_q6_k(b, y, count); return;
    default:  // F32/F16/BF16 are mapped, not dequantised; the reader refuses other types first
      throw Error(fmt::format("dequantize_row: {} is not a quantised type lumen reads", type.name));
  }
}

}  // namespace lumen::io
