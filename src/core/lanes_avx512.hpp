// lanes_generic.hpp's 16-lane order in one AVX-512 register. Included inside the anonymous namespace of
// *_avx512.cpp files only, so nothing here is compiled for another ISA.

inline float reduce16(__m512 v) {
  const __m256 a = _mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));  // (l, l+8)
  const __m128 b = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));      // (l, l+4)
  const __m128 c = _mm_add_ps(b, _mm_movehl_ps(b, b));                                      // (l, l+2)
  const __m128 e = _mm_add_ss(c, _mm_shuffle_ps(c, c, 1));                                  // (l, l+1)
  return _mm_cvtss_f32(e);
}

// The first m of 16 lanes.
inline __mmask16 tail_mask(std::size_t m) { return static_cast<__mmask16>((1u << m) - 1u); }

// Sixteen f32 lanes in one register, for kernels written once over a lane type (src/eval/analogy_kernels_simd.hpp,
// src/train/kernels_simd.hpp, src/nn/gather_simd.hpp, src/nn/activations_simd.hpp). + - * / on __m512 are the
// element-wise IEEE operations (GCC's and Clang's vector extensions); the ISA flags' -ffp-contract=off keeps
// a * b + c two roundings.
struct Lanes {
  using V = __m512;
  static constexpr std::size_t kWidth = 16;
  static V set1(float x) { return _mm512_set1_ps(x); }
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static void stream(float* p, V v) { _mm512_stream_ps(p, v); }  // p 64-byte aligned
  // The first m < kWidth lanes (the others zero on load, untouched on store): masked moves.
  static V load_first(const float* p, std::size_t m) { return _mm512_maskz_loadu_ps(tail_mask(m), p); }
  static void store_first(float* p, std::size_t m, V v) { _mm512_mask_storeu_ps(p, tail_mask(m), v); }
  // The bit mask of lanes where s > t (NaN: 0).
  static unsigned above(V s, V t) { return static_cast<unsigned>(_mm512_cmp_ps_mask(s, t, _CMP_GT_OQ)); }
  // maxps / minps: a > b ? a : b and a < b ? a : b (b when either is NaN).
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  // The floats whose bits are (bits(k) - bias) << 23: 2^n from k = n + 1.5 * 2^23 (src/nn/activations_simd.hpp).
  static V from_exponent(V k, unsigned bias) {
    const auto b = _mm512_set1_epi32(static_cast<int>(bias));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_sub_epi32(_mm512_castps_si512(k), b), 23));
  }
};
