// Fuzzes the element types: the bytes are read as f32 values (any bit pattern: NaN, Inf, subnormals) and as
// f16/bf16 halves. Checks that every ISA's conversion and dot kernels give the bits of the scalar reference,
// that narrowing rounds to the nearest representable value, that widening then narrowing is exact, and that
// Matrix::to agrees with the scalar functions. Any mismatch aborts (a crash for libFuzzer).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "lumen/core/dtype.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/core/matrix.hpp"
#include "lumen/core/simd.hpp"

namespace {

void check(bool ok, const char* what, std::size_t i) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_core_dtype: %s (element %zu)\n", what, i);
  std::abort();
}

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Narrowing a finite f32 must give the nearest f16 (ties to even): no other half may be strictly closer.
void check_f16_nearest(float x, std::uint16_t h, std::size_t i) {
  const double ax = std::fabs(static_cast<double>(x));
  if (ax >= 65520.0) {  // at or beyond the rounding boundary of the largest half, 65504
    check((h & 0x7fffu) == 0x7c00u, "f32_to_f16 overflow is not Inf", i);
    return;
  }
  const double y = lumen::f16_to_f32(h);
  check(std::isfinite(y), "f32_to_f16 of a value below 65520 is not finite", i);
  check(y == 0.0 || std::signbit(y) == std::signbit(x), "f32_to_f16 changed the sign", i);
  const double err = std::fabs(y - static_cast<double>(x));
  for (int step : {-1, 1}) {  // the neighbouring halves of the same sign
    const int mag = static_cast<int>(h & 0x7fffu) + step;
    if (mag < 0 || mag > 0x7bff) continue;
    const double n = lumen::f16_to_f32(static_cast<std::uint16_t>((h & 0x8000u) | static_cast<unsigned>(mag)));
    const double nerr = std::fabs(n - static_cast<double>(x));
    check(nerr > err || (nerr == err && (h & 1u) == 0), "f32_to_f16 did not round to nearest even", i);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The first byte picks a dtype name to parse; the rest is payload.
  if (size == 0) return 0;
  static const char* const kNames[] = {"f32", "float16", "bf16", "bfloat16", "half", "int8", "", "F32"};
  try {
    const lumen::DType t = lumen::parse_dtype(kNames[data[0] % 8]);
    check(lumen::parse_dtype(lumen::dtype_name(t)) == t, "dtype_name does not parse back", 0);
  } catch (const lumen::UsageError&) {
    // the expected answer for an unknown name
  }
  ++data;
  --size;

  const std::size_t n = size / 4;
  std::vector<float> x(n);
  if (n != 0) std::memcpy(x.data(), data, n * 4);
  const std::size_t nh = size / 2;
  std::vector<std::uint16_t> h(nh);
  if (nh != 0) std::memcpy(h.data(), data, nh * 2);

  // Scalar reference.
  std::vector<std::uint16_t> ref_h(n), ref_b(n);
  std::vector<float> ref_hf(nh), ref_bf(nh);
  for (std::size_t i = 0; i < n; ++i) {
    ref_h[i] = lumen::f32_to_f16(x[i]);
    ref_b[i] = lumen::f32_to_bf16(x[i]);
    if (std::isnan(x[i])) {
      check(std::isnan(lumen::f16_to_f32(ref_h[i])), "f16 NaN lost", i);
      check(std::isnan(lumen::bf16_to_f32(ref_b[i])), "bf16 NaN lost", i);
    } else {
      check_f16_nearest(x[i], ref_h[i], i);
      const float b = lumen::bf16_to_f32(ref_b[i]);
      check(std::isinf(x[i]) == std::isinf(b) || std::fabs(x[i]) >= 3.3895e38f, "bf16 Inf mismatch", i);
      if (std::isfinite(b) && std::isnormal(x[i]))  // subnormals keep an absolute, not relative, precision
        check(std::fabs(b - x[i]) <= std::fabs(x[i]) * 0x1.0p-8f, "bf16 error above half an ulp", i);
    }
  }
  for (std::size_t i = 0; i < nh; ++i) {
    ref_hf[i] = lumen::f16_to_f32(h[i]);
    ref_bf[i] = lumen::bf16_to_f32(h[i]);
    const bool nan_h = (h[i] & 0x7c00u) == 0x7c00u && (h[i] & 0x3ffu) != 0;
    if (nan_h) {
      check(std::isnan(ref_hf[i]), "f16 NaN did not widen to NaN", i);
    } else {
      check(lumen::f32_to_f16(ref_hf[i]) == h[i], "f16 -> f32 -> f16 is not exact", i);
    }
    if (!std::isnan(ref_bf[i])) check(lumen::f32_to_bf16(ref_bf[i]) == h[i], "bf16 -> f32 -> bf16 is not exact", i);
  }

  // Every ISA variant: the same bits as the scalar reference.
  std::vector<std::uint16_t> out16(std::max(n, nh));
  std::vector<float> out32(std::max(n, nh));
  for (lumen::Isa isa : lumen::available_isas()) {
    const auto& k = lumen::kernels::table(isa);
    k.f32_to_f16(x.data(), out16.data(), n);
    for (std::size_t i = 0; i < n; ++i) check(out16[i] == ref_h[i], "f32_to_f16 kernel differs from scalar", i);
    k.f32_to_bf16(x.data(), out16.data(), n);
    for (std::size_t i = 0; i < n; ++i) check(out16[i] == ref_b[i], "f32_to_bf16 kernel differs from scalar", i);
    k.f16_to_f32(h.data(), out32.data(), nh);
    for (std::size_t i = 0; i < nh; ++i)
      check(bits(out32[i]) == bits(ref_hf[i]), "f16_to_f32 kernel differs from scalar", i);
    k.bf16_to_f32(h.data(), out32.data(), nh);
    for (std::size_t i = 0; i < nh; ++i)
      check(bits(out32[i]) == bits(ref_bf[i]), "bf16_to_f32 kernel differs from scalar", i);
  }

  // Dot products: every variant sums in the same order, so the bits agree (NaN compares as NaN).
  if (n != 0) {
    const auto& g = lumen::kernels::table(lumen::Isa::generic);
    const float d = g.dot_f32(x.data(), x.data(), n);
    const float dh = g.dot_f16(x.data(), ref_h.data(), n);
    for (lumen::Isa isa : lumen::available_isas()) {
      const auto& k = lumen::kernels::table(isa);
      const float e = k.dot_f32(x.data(), x.data(), n);
      check(bits(e) == bits(d) || (std::isnan(e) && std::isnan(d)), "dot_f32 differs across ISAs", 0);
      const float eh = k.dot_f16(x.data(), ref_h.data(), n);
      check(bits(eh) == bits(dh) || (std::isnan(eh) && std::isnan(dh)), "dot_f16 differs across ISAs", 0);
    }
  }

  // Matrix::to: a 1 x n f32 matrix narrowed and widened again agrees with the scalar path.
  if (n != 0) {
    lumen::Matrix m(1, n);
    std::memcpy(m.mutable_data(), x.data(), n * 4);
    const lumen::Matrix mh = m.to(lumen::DType::f16);
    const lumen::Matrix back = mh.to(lumen::DType::f32);
    for (std::size_t i = 0; i < n; ++i) {
      const float want = lumen::f16_to_f32(ref_h[i]);
      check(bits(back.at(0, i)) == bits(want), "Matrix::to(f16) then to(f32) differs from scalar", i);
    }
    const lumen::Matrix mb = mh.to(lumen::DType::bf16);  // f16 -> bf16 goes through f32
    check(mb.rows() == 1 && mb.cols() == n, "Matrix::to changed the shape", 0);
  }
  return 0;
}
