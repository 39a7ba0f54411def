// AVX2 scan kernels: one row at a time (a sequential stream the prefetcher follows best), each row's 16-lane
// accumulator split in two registers
// (lanes 0-7, 8-15). Same order as kernels_generic.cpp, so bit-identical results; the tail goes through
// zero-padded 16-lane buffers.
#include <immintrin.h>

#include "lumen/search/kernel_table.hpp"

namespace lumen::search {
namespace {

#include "core/lanes_avx2.hpp"
#include "scan_term.hpp"

struct LoadF32 {
  using T = float;
  static __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
  static float scalar(float x) { return x; }
};
struct LoadF16 {
  using T = std::uint16_t;
  static __m256 load8(const std::uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static float scalar(std::uint16_t h) { return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h))); }
};
struct LoadBF16 {
  using T = std::uint16_t;
  static __m256 load8(const std::uint16_t* p) {
    return _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), 16));
  }
  static float scalar(std::uint16_t b) {
    return _mm_cvtss_f32(_mm_castsi128_ps(_mm_cvtsi32_si128(static_cast<int>(static_cast<unsigned>(b) << 16))));
  }
};

// The last d % 16 elements of a row, zero-padded to 16 lanes.
template <class L>
inline void pad_tail(const typename L::T* p, std::size_t m, float* dst) {
  for (std::size_t l = 0; l < 16; ++l) dst[l] = l < m ? L::scalar(p[l]) : 0.0f;
}

template <bool kL2, class L>
void scan(const float* q, const typename L::T* rows, std::size_t n, std::size_t d, float* out) {
  const std::size_t whole = d & ~std::size_t{15};
  const std::size_t m = d - whole;
  alignas(32) float qt[16];
  for (std::size_t l = 0; l < 16; ++l) qt[l] = l < m ? q[whole + l] : 0.0f;
  const __m256 qt_lo = _mm256_load_ps(qt), qt_hi = _mm256_load_ps(qt + 8);
  alignas(32) float rt[16];
  for (std::size_t r = 0; r < n; ++r) {
    const typename L::T* p0 = rows + r * d;
    __m256 lo = _mm256_setzero_ps(), hi = lo;
    for (std::size_t i = 0; i < whole; i += 16) {
      lo = term<kL2>(lo, _mm256_loadu_ps(q + i), L::load8(p0 + i));
      hi = term<kL2>(hi, _mm256_loadu_ps(q + i + 8), L::load8(p0 + i + 8));
    }
    if (m != 0) {
      pad_tail<L>(p0 + whole, m, rt);
      lo = term<kL2>(lo, qt_lo, _mm256_load_ps(rt));
      hi = term<kL2>(hi, qt_hi, _mm256_load_ps(rt + 8));
    }
    out[r] = reduce16(lo, hi);
  }
}

}  // namespace

// The template's instances are the table's entries: L::T is the stored element (float, f16 or bf16 bits).
const ScanKernels kScanAvx2 = {scan<false, LoadF32>, scan<false, LoadF16>, scan<false, LoadBF16>,
                               scan<true, LoadF32>,  scan<true, LoadF16>,  scan<true, LoadBF16>};

}  // namespace lumen::search
