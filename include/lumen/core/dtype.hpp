#pragma once
// Element types of a table: stored narrow, computed in f32.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lumen {

enum class DType : std::uint8_t { f32, f16, bf16 };

constexpr std::size_t dtype_size(DType t) { return t == DType::f32 ? 4 : 2; }
std::string_view dtype_name(DType t);
// Parses "f32"/"float32", "f16"/"float16"/"half", "bf16"/"bfloat16"; throws UsageError otherwise.
DType parse_dtype(std::string_view name);

// IEEE binary16 <-> binary32, round to nearest even; NaN stays NaN, overflow becomes Inf.
inline float f16_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t man = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13) | (man != 0 ? 0x400000u : 0u);  // NaN comes out quiet, as with F16C
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exp = 113;
    while ((man & 0x400u) == 0) {
      man <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((man & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(bits);
}

inline std::uint16_t f32_to_f16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return sign | 0x7e00u | ((ax >> 13) & 0x3ffu);  // NaN: quiet, payload kept (as F16C)
  if (ax == 0x7f800000u) return sign | 0x7c00u;
  if (ax >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520: overflow
  if (ax < 0x38800000u) {                        // result is subnormal or zero
    if (ax < 0x33000000u) return sign;           // below half the smallest subnormal
    const std::uint32_t e = ax >> 23;
    const std::uint32_t man = (ax & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126 - e;  // 14..24 bits to drop
    std::uint32_t r = man >> shift;
    const std::uint32_t rem = man & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    return static_cast<std::uint16_t>(sign | r);
  }
  std::uint32_t r = ax - 0x38000000u;  // rebias exponent 127 -> 15
  r += 0xfffu + ((r >> 13) & 1u);      // round to nearest even
  return static_cast<std::uint16_t>(sign | (r >> 13));
}

inline float bf16_to_f32(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

inline std::uint16_t f32_to_bf16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

}  // namespace lumen
