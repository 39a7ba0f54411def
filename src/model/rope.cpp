// Rotary position embedding (Su et al. 2021) in Hugging Face's rotate-half layout (Llama).
#include <cmath>

#include "lumen/model/ops.hpp"

namespace lumen::model {

void rope_inv_freq(float* inv_freq, std::size_t hs, double theta) {
  for (std::size_t i = 0; i < hs / 2; ++i)  // 1 / theta^(2i/hs), the exponent in f32 as torch.arange(0, hs, 2) / hs
    inv_freq[i] = static_cast<float>(
        1.0 / std::pow(theta, static_cast<double>(static_cast<float>(2 * i) / static_cast<float>(hs))));
}

void rope_tables(float* cos, float* sin, const float* inv_freq, std::size_t T, std::size_t hs) {
  const std::size_t half = hs / 2;
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t i = 0; i < half; ++i) {
      const float angle = static_cast<float>(t) * inv_freq[i];  // (T, hs/2)
      cos[t * half + i] = std::cos(angle);
      sin[t * half + i] = std::sin(angle);
    }
}

void rope_forward(float* qkv, const float* cos, const float* sin, std::size_t B, std::size_t T, std::size_t NH,
                  std::size_t NKV, std::size_t hs) {
  const std::size_t half = hs / 2, ld = (NH + 2 * NKV) * hs;
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      const float* c = cos + t * half;
      const float* s = sin + t * half;
      float* row = qkv + (b * T + t) * ld;
      for (std::size_t h = 0; h < NH + NKV; ++h) {  // the query heads, then the key heads (values are not rotated)
        float* x = row + h * hs;
        for (std::size_t i = 0; i < half; ++i) {
          const float x1 = x[i], x2 = x[i + half];
          x[i] = x1 * c[i] - x2 * s[i];
          x[i + half] = x2 * c[i] + x1 * s[i];
        }
      }
    }
}

}  // namespace lumen::model
