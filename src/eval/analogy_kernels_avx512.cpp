#include <immintrin.h>

#include "analogy_kernel_table.hpp"

namespace lumen::eval::kernels {

namespace {

struct V {
  static constexpr std::size_t kLanes = 16;
  static __m512 set1(float x) { return _mm512_set1_ps(x); }
  static __m512 load(const float* p) { return _mm512_loadu_ps(p); }
  static __m512 add(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
  static __m512 sub(__m512 a, __m512 b) { return _mm512_sub_ps(a, b); }
  static __m512 mul(__m512 a, __m512 b) { return _mm512_mul_ps(a, b); }
  static __m512 div(__m512 a, __m512 b) { return _mm512_div_ps(a, b); }
  static unsigned above(__m512 s, __m512 t) { return static_cast<unsigned>(_mm512_cmp_ps_mask(s, t, _CMP_GT_OQ)); }
};

#include "analogy_kernels_simd.hpp"

}  // namespace

const Table kAvx512 = {add_above<V>, mul_above<V>};

}  // namespace lumen::eval::kernels
