// AVX-512 scan kernels: a streaming pass over the rows, one 16-lane accumulator per row. Same order as
// kernels_generic.cpp, so bit-identical results.
#include <immintrin.h>

#include "lumen/search/kernel_table.hpp"

namespace lumen::search {
namespace {

#include "core/lanes_avx512.hpp"
#include "scan_term.hpp"

// Loads 16 stored elements as f32; masked lanes are zero.
struct LoadF32 {
  using T = float;
  static __m512 full(const float* p) { return _mm512_loadu_ps(p); }
  static __m512 part(const float* p, __mmask16 k) { return _mm512_maskz_loadu_ps(k, p); }
};
struct LoadF16 {
  using T = std::uint16_t;
  static __m512 full(const std::uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static __m512 part(const std::uint16_t* p, __mmask16 k) { return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(k, p)); }
};
struct LoadBF16 {
  using T = std::uint16_t;
  static __m512 widen(__m256i h) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)); }
  static __m512 full(const std::uint16_t* p) { return widen(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))); }
  static __m512 part(const std::uint16_t* p, __mmask16 k) { return widen(_mm256_maskz_loadu_epi16(k, p)); }
};

// One row at a time: each row is one sequential 64-byte-line stream, which the hardware prefetcher follows
// best (interleaving four rows measured 1.5-2x slower on huge pages, where a pass is bandwidth-bound).
template <bool kL2, class L>
void scan(const float* q, const typename L::T* rows, std::size_t n, std::size_t d, float* out) {
  const std::size_t whole = d & ~std::size_t{15};
  const __mmask16 k = tail_mask(d - whole);
  const __m512 qt = _mm512_maskz_loadu_ps(k, q + whole);
  for (std::size_t r = 0; r < n; ++r) {
    const typename L::T* row = rows + r * d;
    __m512 acc = _mm512_setzero_ps();
    for (std::size_t i = 0; i < whole; i += 16) acc = term<kL2>(acc, _mm512_loadu_ps(q + i), L::full(row + i));
    if (whole < d) acc = term<kL2>(acc, qt, L::part(row + whole, k));
    out[r] = reduce16(acc);
  }
}

}  // namespace

// The template's instances are the table's entries: L::T is the stored element (float, f16 or bf16 bits).
const ScanKernels kScanAvx512 = {scan<false, LoadF32>, scan<false, LoadF16>, scan<false, LoadBF16>,
                                 scan<true, LoadF32>,  scan<true, LoadF16>,  scan<true, LoadBF16>};

}  // namespace lumen::search
