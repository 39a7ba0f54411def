// AVX2 logistic-regression row kernels; equal logistic_kernels_generic.cpp bit for bit (logistic_kernel_table.hpp).
#include <immintrin.h>

#include "logistic_kernel_table.hpp"

namespace lumen::eval::logistic_kernels {

namespace {

// Four doubles per register: 16 lanes are four registers, and two classes at a time keep the 8 accumulators,
// the row's register and a product in the 16 ymm registers.
struct Lanes {
  using V = __m256d;
  static constexpr std::size_t kWidth = 4;
  static constexpr std::size_t kGroup = 2;
  static V zero() { return _mm256_setzero_pd(); }
  static V set1(double v) { return _mm256_set1_pd(v); }
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static V load(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
  static __m256i first64(std::size_t m) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(m)), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  static __m128i first32(std::size_t m) {
    return _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(m)), _mm_setr_epi32(0, 1, 2, 3));
  }
  static V load_first(const double* p, std::size_t m) { return _mm256_maskload_pd(p, first64(m)); }
  static V load_first(const float* p, std::size_t m) { return _mm256_cvtps_pd(_mm_maskload_ps(p, first32(m))); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  // Registers hold lanes 0-3, 4-7, 8-11, 12-15: (l, l+8), (l, l+4), (l, l+2), (l, l+1).
  static double reduce16(const V* acc) {
    const __m256d a = _mm256_add_pd(acc[0], acc[2]), c = _mm256_add_pd(acc[1], acc[3]);    // (l, l+8)
    const __m256d e = _mm256_add_pd(a, c);                                                 // (l, l+4)
    const __m128d f = _mm_add_pd(_mm256_castpd256_pd128(e), _mm256_extractf128_pd(e, 1));  // (l, l+2)
    return _mm_cvtsd_f64(_mm_add_sd(f, _mm_unpackhi_pd(f, f)));                            // (l, l+1)
  }
};

#include "logistic_kernels_simd.hpp"  // over its Lanes: rows_f64 and rows_f32

}  // namespace

const Table kAvx2 = {rows_f64, rows_f32};

}  // namespace lumen::eval::logistic_kernels
