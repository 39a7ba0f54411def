// The SIMD gather, written once over a lane type L (core/lanes_avx2.hpp, core/lanes_avx512.hpp); gather_avx2.cpp
// and gather_avx512.cpp include it inside their anonymous namespace, so that each ISA's instance stays its own.
// L::kWidth floats at a time, the last d % kWidth as one masked step; the next row is prefetched. Non-temporal
// stores when asked: they need a vector-aligned destination, so a misaligned row first copies up to the next
// L::kWidth * 4-byte boundary (then each store is a whole aligned vector: no read-for-ownership of the output).

template <class L>
void gather(float* out, const float* E, const std::int64_t* ids, std::size_t n, std::size_t d, float scale,
            bool stream) {
  constexpr std::size_t kAlign = L::kWidth * sizeof(float);
  const auto s = L::set1(scale);
  const bool scaled = scale != 1.0f;
  const auto scale_of = [&](typename L::V x) { return scaled ? x * s : x; };
  for (std::size_t p = 0; p < n; ++p) {
    const float* src = E + static_cast<std::size_t>(ids[p]) * d;
    float* dst = out + p * d;
    if (p + 1 < n)
      _mm_prefetch(reinterpret_cast<const char*>(E + static_cast<std::size_t>(ids[p + 1]) * d), _MM_HINT_T0);
    std::size_t j = 0;
    const std::size_t mis = reinterpret_cast<std::uintptr_t>(dst) % kAlign;
    const bool nt = stream && mis % sizeof(float) == 0;
    if (nt && mis != 0) {
      j = (kAlign - mis) / sizeof(float) < d ? (kAlign - mis) / sizeof(float) : d;
      L::store_first(dst, j, scale_of(L::load_first(src, j)));
    }
    for (; j + L::kWidth <= d; j += L::kWidth) {
      const auto x = scale_of(L::load(src + j));
      if (nt) L::stream(dst + j, x);
      else L::store(dst + j, x);
    }
    if (j < d) L::store_first(dst + j, d - j, scale_of(L::load_first(src + j, d - j)));
  }
  if (stream) _mm_sfence();  // non-temporal stores are visible to other threads after this
}
