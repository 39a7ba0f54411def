// AVX-512 logistic-regression row kernels; equal logistic_kernels_generic.cpp bit for bit
// (logistic_kernel_table.hpp).
#include <immintrin.h>

#include "logistic_kernel_table.hpp"

namespace lumen::eval::logistic_kernels {

namespace {

// Eight doubles per register: 16 lanes are two registers; four classes at a time are 8 of the 32 zmm registers.
struct Lanes {
  using V = __m512d;
  static constexpr std::size_t kWidth = 8;
  static constexpr std::size_t kGroup = 4;
  static __mmask8 first(std::size_t m) { return static_cast<__mmask8>((1u << m) - 1u); }
  static V zero() { return _mm512_setzero_pd(); }
  static V set1(double v) { return _mm512_set1_pd(v); }
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static V load(const float* p) { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
  static V load_first(const double* p, std::size_t m) { return _mm512_maskz_loadu_pd(first(m), p); }
  static V load_first(const float* p, std::size_t m) { return _mm512_cvtps_pd(_mm256_maskz_loadu_ps(first(m), p)); }
  static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
  // Registers hold lanes 0-7 and 8-15: (l, l+8), (l, l+4), (l, l+2), (l, l+1).
  static double reduce16(const V* acc) {
    const __m512d a = _mm512_add_pd(acc[0], acc[1]);                                           // (l, l+8)
    const __m256d c = _mm256_add_pd(_mm512_castpd512_pd256(a), _mm512_extractf64x4_pd(a, 1));  // (l, l+4)
    const __m128d f = _mm_add_pd(_mm256_castpd256_pd128(c), _mm256_extractf128_pd(c, 1));      // (l, l+2)
    return _mm_cvtsd_f64(_mm_add_sd(f, _mm_unpackhi_pd(f, f)));                                // (l, l+1)
  }
};

#include "logistic_kernels_simd.hpp"  // over its Lanes: rows_f64 and rows_f32

}  // namespace

const Table kAvx512 = {rows_f64, rows_f32};

}  // namespace lumen::eval::logistic_kernels
