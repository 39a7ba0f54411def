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
