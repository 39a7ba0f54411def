// AVX2 gather: 8 floats at a time; non-temporal stores when asked and the destination row is 32-byte aligned.
#include <immintrin.h>

#include "gather_table.hpp"

namespace lumen::nn::kernels {
namespace {

void gather(float* out, const float* E, const std::int64_t* ids, std::size_t n, std::size_t d, float scale,
            bool stream) {
  const __m256 s = _mm256_set1_ps(scale);
  const bool scaled = scale != 1.0f;
  for (std::size_t p = 0; p < n; ++p) {
    const float* src = E + static_cast<std::size_t>(ids[p]) * d;
    float* dst = out + p * d;
    const bool nt = stream && (reinterpret_cast<std::uintptr_t>(dst) & 31u) == 0;
    std::size_t j = 0;
    for (; j + 8 <= d; j += 8) {
      __m256 x = _mm256_loadu_ps(src + j);
      if (scaled) x = _mm256_mul_ps(x, s);
      if (nt) _mm256_stream_ps(dst + j, x);
      else _mm256_storeu_ps(dst + j, x);
    }
    for (; j < d; ++j) dst[j] = scaled ? src[j] * scale : src[j];
  }
  if (stream) _mm_sfence();  // non-temporal stores are visible to other threads after this
}

}  // namespace

const GatherTable kGatherAvx2 = {gather};

}  // namespace lumen::nn::kernels
