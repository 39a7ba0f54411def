#include <immintrin.h>

#include "analogy_kernel_table.hpp"

namespace lumen::eval::kernels {

namespace {

struct V {
  static constexpr std::size_t kLanes = 8;
  static __m256 set1(float x) { return _mm256_set1_ps(x); }
  static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
  static __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
  static __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
  static __m256 mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
  static __m256 div(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
  static unsigned above(__m256 s, __m256 t) {
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(s, t, _CMP_GT_OQ)));
  }
};

#include "analogy_kernels_simd.hpp"

}  // namespace

const Table kAvx2 = {add_above<V>, mul_above<V>};

}  // namespace lumen::eval::kernels
