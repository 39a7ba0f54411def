// AVX-512 gather: 16 floats at a time, masked tail; non-temporal stores when asked and the destination row
// is 64-byte aligned (a whole cache line per store, so no read-for-ownership of the output).
#include <immintrin.h>

#include "gather_table.hpp"

namespace lumen::nn::kernels {
namespace {

void gather(float* out, const float* E, const std::int64_t* ids, std::size_t n, std::size_t d, float scale,
            bool stream) {
  const __m512 s = _mm512_set1_ps(scale);
  const bool scaled = scale != 1.0f;
  for (std::size_t p = 0; p < n; ++p) {
    const float* src = E + static_cast<std::size_t>(ids[p]) * d;
    float* dst = out + p * d;
    if (p + 1 < n)
      _mm_prefetch(reinterpret_cast<const char*>(E + static_cast<std::size_t>(ids[p + 1]) * d), _MM_HINT_T0);
    std::size_t j = 0;
    // Streaming needs 64-byte aligned stores: a misaligned row first copies up to the next cache line.
    const std::size_t mis = reinterpret_cast<std::uintptr_t>(dst) & 63u;
    const bool nt = stream && (mis & 3u) == 0;
    if (nt && mis != 0) {
      const std::size_t head = (64 - mis) / 4 < d ? (64 - mis) / 4 : d;
      const __mmask16 hk = static_cast<__mmask16>((1u << head) - 1u);
      __m512 x = _mm512_maskz_loadu_ps(hk, src);
      if (scaled) x = _mm512_mul_ps(x, s);
      _mm512_mask_storeu_ps(dst, hk, x);
      j = head;
    }
    for (; j + 16 <= d; j += 16) {
      __m512 x = _mm512_loadu_ps(src + j);
      if (scaled) x = _mm512_mul_ps(x, s);
      if (nt) _mm512_stream_ps(dst + j, x);
      else _mm512_storeu_ps(dst + j, x);
    }
    if (j < d) {
      const __mmask16 tk = static_cast<__mmask16>((1u << (d - j)) - 1u);
      __m512 x = _mm512_maskz_loadu_ps(tk, src + j);
      if (scaled) x = _mm512_mul_ps(x, s);
      _mm512_mask_storeu_ps(dst + j, tk, x);
    }
  }
  if (stream) _mm_sfence();
}

}  // namespace

const GatherTable kGatherAvx512 = {gather};

}  // namespace lumen::nn::kernels
